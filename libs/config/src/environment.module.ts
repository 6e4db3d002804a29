import { DynamicModule, Module, Provider } from '@nestjs/common';
import { CommonEnvironment, environmentValidator, ServiceEnvironment } from './environment';

/**
 * The app's environment, read and validated once at boot into an instance of its environment
 * class, which is then injected by that class (and by the base classes libraries ask for):
 * `constructor(private readonly env: GatewayEnvironment)`, typed, with no token per value.
 * A bad value stops the boot with a message naming the variable.
 */
@Module({})
export class EnvironmentModule {
  static forRoot<T extends CommonEnvironment>(type: new () => T, raw: NodeJS.ProcessEnv = process.env): DynamicModule {
    const environment = environmentValidator(type)(raw);
    const bases: Provider[] = [CommonEnvironment, ServiceEnvironment]
      .filter((base) => base !== type && environment instanceof base)
      .map((base) => ({ provide: base, useExisting: type }));
    const providers: Provider[] = [{ provide: type, useValue: environment }, ...bases];
    return { module: EnvironmentModule, global: true, providers, exports: providers };
  }
}
