import { Matches } from 'class-validator';
import { CommonEnvironment, isPort, isTimeout } from '@app/common';

export class GatewayEnvironment extends CommonEnvironment {
  @isPort('PORT')
  PORT: number = 3000;

  /** `key:client_id` pairs, comma separated. Without any, every request is refused. */
  @Matches(/^([A-Za-z0-9._~+/=-]{8,256}:\d{1,15})?(,[A-Za-z0-9._~+/=-]{8,256}:\d{1,15})*$/, {
    message: 'API_KEYS must be key:client_id pairs, comma separated (keys of 8 to 256 URL-safe characters)',
  })
  API_KEYS: string = '';

  /** How long the gateway waits for a service's answer before giving 503. */
  @isTimeout('RPC_TIMEOUT_MS')
  RPC_TIMEOUT_MS: number = 5000;
}
