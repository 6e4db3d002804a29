import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as patterns from './patterns';
import { Pattern, PATTERN_SENDERS, SENDER_ROLES, SenderRole } from './senders';

const GROUPS = Object.entries(patterns).filter(([name, value]) => typeof value === 'object' && name !== 'QUEUES') as [
  string,
  Record<string, Pattern>,
][];

/** The non-spec TypeScript files under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !/\.(spec|testing)\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The patterns an app sends, as its code names them (`PROPERTIES.GET`), leaving out the files
 * that answer patterns: a service's message controllers and the module that answers its ping.
 */
function patternsSentBy(app: SenderRole): Pattern[] {
  const sent = new Set<Pattern>();
  for (const file of sources(join(__dirname, '..', '..', '..', 'apps', app, 'src'))) {
    const code = readFileSync(file, 'utf8');
    if (/@MessagePattern\(/.test(code) || file.endsWith('app.module.ts')) continue;
    for (const [group, members] of GROUPS) {
      for (const [, member] of code.matchAll(new RegExp(`\\b${group}\\.([A-Z_]+)\\b`, 'g'))) {
        if (members[member]) sent.add(members[member]);
      }
    }
  }
  return [...sent];
}

describe('PATTERN_SENDERS', () => {
  it('names, for every pattern, the roles that send it', () => {
    for (const [, members] of GROUPS) {
      for (const pattern of Object.values(members)) {
        expect([pattern, PATTERN_SENDERS[pattern]?.length]).toEqual([pattern, expect.any(Number)]);
        expect(PATTERN_SENDERS[pattern].every((role) => SENDER_ROLES.includes(role))).toBe(true);
      }
    }
  });

  it.each(SENDER_ROLES)('lets the %s send every pattern its code sends', (role) => {
    const sent = patternsSentBy(role);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((pattern) => !PATTERN_SENDERS[pattern].includes(role))).toEqual([]);
  });

  it('lets the form send only what an applicant does, and readiness pings', () => {
    const formPatterns = Object.entries(PATTERN_SENDERS)
      .filter(([, roles]) => roles.includes('form'))
      .map(([pattern]) => pattern);
    expect(formPatterns.sort()).toEqual(
      [
        ...Object.values(patterns.APPLICATION_FORMS),
        patterns.INVITATIONS.CHECK,
        patterns.INVITATIONS.USE,
        patterns.INVITATIONS.RELEASE,
        patterns.PROPERTIES.FORM_GET,
        patterns.FORM_PRESET_PATTERNS.FORM_GET,
        patterns.DOCUMENTS.FORM_LIST,
        patterns.DOCUMENTS.ADD,
        patterns.NOTIFICATIONS.CONFIRM_ADDRESS,
        patterns.NOTIFICATIONS.UNSUBSCRIBE,
        patterns.NOTIFICATIONS.DESCRIBE_LINK,
        patterns.PROPERTIES.PING,
        patterns.APPLICATIONS.PING,
      ].sort(),
    );
  });

  it('keeps deletes, sensitive data and the notification lookup to the apps meant to send them', () => {
    expect(PATTERN_SENDERS[patterns.PROPERTIES.DELETE]).toEqual(['gateway']);
    expect(PATTERN_SENDERS[patterns.APPLICATIONS.READ_SENSITIVE_DATA]).toEqual(['gateway']);
    expect(PATTERN_SENDERS[patterns.DOCUMENTS.READ]).toEqual(['gateway']);
    expect(PATTERN_SENDERS[patterns.APPLICATIONS.NOTIFICATION_SUBJECT]).toEqual(['notifications']);
    expect(PATTERN_SENDERS[patterns.PROPERTIES.LOOKUP]).toEqual(['applications']);
  });
});
