import { PropertiesEnvironment } from '../config/properties.environment';

export interface FormDefaults {
  form_preset_id: number;
  background_config_id: number;
}

/** The form preset and background config a client's new properties start with. */
export class ClientDefaults {
  private readonly overrides = new Map<number, FormDefaults>();

  constructor(
    private readonly fallback: FormDefaults,
    overrides: string,
  ) {
    for (const entry of overrides.split(',').filter(Boolean)) {
      const [clientId, formPresetId, backgroundConfigId] = entry.split(':').map(Number);
      this.overrides.set(clientId, { form_preset_id: formPresetId, background_config_id: backgroundConfigId });
    }
  }

  static fromEnvironment(env: PropertiesEnvironment): ClientDefaults {
    const fallback = { form_preset_id: env.DEFAULT_FORM_PRESET_ID, background_config_id: env.DEFAULT_BACKGROUND_CONFIG_ID };
    return new ClientDefaults(fallback, env.CLIENT_DEFAULTS);
  }

  for(clientId: number): FormDefaults {
    return this.overrides.get(clientId) ?? this.fallback;
  }
}
