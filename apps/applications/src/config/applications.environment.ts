import { isTimeout, ServiceEnvironment } from '@app/common';

export class ApplicationsEnvironment extends ServiceEnvironment {
  override HTTP_PORT: number = 3002;

  /** How long to wait for the properties service to confirm a property_id. */
  @isTimeout('PROPERTY_LOOKUP_TIMEOUT_MS')
  PROPERTY_LOOKUP_TIMEOUT_MS: number = 2000;
}
