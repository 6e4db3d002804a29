import { exitOnStartupFailure, runService } from '@app/common';
import { QUEUES } from '@app/contracts';
import { AppModule } from './app.module';

runService(AppModule, QUEUES.PROPERTIES).catch(exitOnStartupFailure);
