import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { FormPresetsHttpController } from './form-presets.http.controller';

@Module({
  imports: [AuthModule, RateLimitModule],
  controllers: [FormPresetsHttpController],
})
export class FormPresetsModule {}
