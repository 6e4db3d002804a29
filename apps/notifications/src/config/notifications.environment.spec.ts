import { environmentValidator } from '@app/config';
import { DEFAULT_MAIL_RETRY_SCHEDULE, NotificationsEnvironment } from './notifications.environment';

const read = environmentValidator(NotificationsEnvironment);
const REQUIRED = { FINGERPRINT_KEYS: 'k1:' + Buffer.alloc(32, 1).toString('base64') };

describe('NotificationsEnvironment', () => {
  it('defaults to the local inbox, a development sender, reminders after 24 hours and retries for about 24 hours', () => {
    const env = read(REQUIRED);
    expect(env.SMTP_URL).toBe('smtp://127.0.0.1:1025');
    expect(env.MAIL_FROM).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(env.reminderAfterMs).toBe(24 * 3600 * 1000);
    const total = DEFAULT_MAIL_RETRY_SCHEDULE.split(',')
      .map(Number)
      .reduce((sum, seconds) => sum + seconds, 0);
    expect(total / 3600).toBeGreaterThan(23);
    expect(total / 3600).toBeLessThanOrEqual(24);
  });

  it('takes fractions of an hour for REMINDER_AFTER_HOURS (short delays for tests)', () => {
    expect(read({ ...REQUIRED, REMINDER_AFTER_HOURS: '0.001' }).reminderAfterMs).toBe(3600);
    expect(read({ ...REQUIRED, MAIL_RETRY_SCHEDULE: '1,1' }).retrySchedule).toEqual([1, 1]);
  });

  it.each([
    ['SMTP_URL', 'http://mail.example.test'],
    ['MAIL_FROM', 'not an address'],
    ['REMINDER_AFTER_HOURS', '0'],
    ['REMINDER_AFTER_HOURS', 'soon'],
    ['REMINDER_AFTER_HOURS', '1000'],
    ['MAIL_RETRY_SCHEDULE', '1,,2'],
  ])('stops the boot on %s=%s, naming it', (name, value) => {
    expect(() => read({ ...REQUIRED, [name]: value })).toThrow(new RegExp(`${name}: ${name} must`));
  });
});
