import { IsIn, IsInt, Matches, Min } from 'class-validator';
import { FORM_PRESETS } from '@app/contracts';
import { HTTP_URL, isIntegerInRange, ServiceEnvironment } from '@app/config';

export class PropertiesEnvironment extends ServiceEnvironment {
  override HTTP_PORT: number = 3001;

  /** Public base URL of the online application form: every application_url starts with it. */
  @Matches(HTTP_URL, { message: 'APPLY_BASE_URL must be an absolute http(s) URL' })
  APPLY_BASE_URL: string = 'http://localhost:3003';

  /** How long an invitation to a property's form can be used (a week by default). */
  @isIntegerInRange('INVITATION_LIFETIME_HOURS', 1, 24 * 365)
  INVITATION_LIFETIME_HOURS: number = 168;

  /** The preset of every client without its own default: one that ships, as every client has those. */
  @IsIn(FORM_PRESETS.map((preset) => preset.id), {
    message: `DEFAULT_FORM_PRESET_ID must be the id of a shipped form preset: ${FORM_PRESETS.map((preset) => preset.id).join(', ')}`,
  })
  DEFAULT_FORM_PRESET_ID: number = 1;

  @IsInt({ message: 'DEFAULT_BACKGROUND_CONFIG_ID must be an integer' })
  @Min(1, { message: 'DEFAULT_BACKGROUND_CONFIG_ID must be at least 1' })
  DEFAULT_BACKGROUND_CONFIG_ID: number = 1;

  /** Per-client overrides: `client_id:form_preset_id:background_config_id`, comma separated. */
  @Matches(/^(\d+:\d+:\d+)?(,\d+:\d+:\d+)*$/, {
    message: 'CLIENT_DEFAULTS must be client_id:form_preset_id:background_config_id entries, comma separated',
  })
  CLIENT_DEFAULTS: string = '';
}
