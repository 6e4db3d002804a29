import { ClientDefaults } from './client-defaults';

const FALLBACK = { form_preset_id: 1, background_config_id: 1 };

describe('ClientDefaults', () => {
  it('gives every client the fallback when there are no overrides', () => {
    const defaults = new ClientDefaults(FALLBACK, '');
    expect(defaults.for(1)).toEqual(FALLBACK);
    expect(defaults.for(99)).toEqual(FALLBACK);
  });

  it('uses configured fallback values, not only 1', () => {
    const defaults = new ClientDefaults({ form_preset_id: 4, background_config_id: 6 }, '');
    expect(defaults.for(3)).toEqual({ form_preset_id: 4, background_config_id: 6 });
  });

  it('reads client_id:form_preset_id:background_config_id overrides', () => {
    const defaults = new ClientDefaults(FALLBACK, '7:3:4,9:12:15');
    expect(defaults.for(7)).toEqual({ form_preset_id: 3, background_config_id: 4 });
    expect(defaults.for(9)).toEqual({ form_preset_id: 12, background_config_id: 15 });
  });

  it('gives the fallback to clients without an override', () => {
    const defaults = new ClientDefaults(FALLBACK, '7:3:4');
    expect(defaults.for(8)).toEqual(FALLBACK);
    expect(defaults.for(77)).toEqual(FALLBACK);
  });

  it('gives numbers, not text', () => {
    const chosen = new ClientDefaults(FALLBACK, '7:3:4').for(7);
    expect(typeof chosen.form_preset_id).toBe('number');
    expect(typeof chosen.background_config_id).toBe('number');
  });

  it('ignores empty entries', () => {
    const defaults = new ClientDefaults(FALLBACK, ',7:3:4,,9:5:6,');
    expect(defaults.for(7)).toEqual({ form_preset_id: 3, background_config_id: 4 });
    expect(defaults.for(9)).toEqual({ form_preset_id: 5, background_config_id: 6 });
    expect(defaults.for(0)).toEqual(FALLBACK);
  });
});
