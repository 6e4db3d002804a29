import './tracing';
import { exitOnStartupFailure, runService } from '@app/runtime';
import { QUEUES } from '@app/contracts';
import { AppModule } from './app.module';

runService(AppModule, QUEUES.APPLICATIONS).catch(exitOnStartupFailure);
