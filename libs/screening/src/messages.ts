/**
 * Every text this library shows a person is a whole sentence kept as a message template under an
 * id, in one catalogue per module, rendered by formatMessage: so that a translation (an ICU
 * message catalogue) can replace each sentence whole, its words in its own order.
 *
 * Templates use the part of ICU MessageFormat that the texts need:
 * - `{name}`: a value as it is (a number in the locale's digits);
 * - `{name, number}` and `{name, number, currency}`: a number, or dollars (cents only when there are some);
 * - `{name, plural, =0 {...} one {...} other {...}}`, with `#` for the number;
 * - `{name, select, some_value {...} other {...}}`.
 * No apostrophe quoting: a template holds no literal brace, and uses ’ for an apostrophe.
 */

export type MessageValue = string | number | boolean;
export type MessageValues = Readonly<Record<string, MessageValue>>;

/** A sentence as shown, with what it was made of: a translation renders `id` with `values` again. */
export interface Sentence {
  id: string;
  values: MessageValues;
  text: string;
}

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'value'; name: string }
  | { kind: 'number'; name: string; style: 'plain' | 'currency' }
  | { kind: 'pound' }
  | { kind: 'plural' | 'select'; name: string; options: Map<string, Node[]> };

const parsed = new Map<string, Node[]>();

/** Renders `template` with `values`; throws on a malformed template or a value it names that is missing. */
export function formatMessage(template: string, values: MessageValues = {}, locale = 'en-US'): string {
  let nodes = parsed.get(template);
  if (!nodes) {
    nodes = new Parser(template).parseAll();
    parsed.set(template, nodes);
  }
  return render(nodes, values, locale, null);
}

/** The sentence `id` of `catalogue`, rendered. */
export function sentence<Id extends string>(
  catalogue: Readonly<Record<Id, string>>,
  id: Id,
  values: MessageValues = {},
): Sentence {
  return { id, values, text: formatMessage(catalogue[id], values) };
}

function render(nodes: Node[], values: MessageValues, locale: string, pound: number | null): string {
  return nodes.map((node) => renderNode(node, values, locale, pound)).join('');
}

function renderNode(node: Node, values: MessageValues, locale: string, pound: number | null): string {
  switch (node.kind) {
    case 'text':
      return node.text;
    case 'pound':
      if (pound === null) return '#';
      return formatNumber(pound, 'plain', locale);
    case 'value': {
      const value = valueOf(values, node.name);
      return typeof value === 'number' ? formatNumber(value, 'plain', locale) : String(value);
    }
    case 'number':
      return formatNumber(numberOf(values, node.name), node.style, locale);
    case 'plural': {
      const count = numberOf(values, node.name);
      const exact = node.options.get(`=${count}`);
      const chosen = exact ?? node.options.get(new Intl.PluralRules(locale).select(count)) ?? node.options.get('other')!;
      return render(chosen, values, locale, count);
    }
    case 'select': {
      const chosen = node.options.get(String(valueOf(values, node.name))) ?? node.options.get('other')!;
      return render(chosen, values, locale, pound);
    }
  }
}

function valueOf(values: MessageValues, name: string): MessageValue {
  if (!Object.prototype.hasOwnProperty.call(values, name)) throw new Error(`the message needs a value for {${name}}`);
  return values[name];
}

function numberOf(values: MessageValues, name: string): number {
  const value = valueOf(values, name);
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`the value for {${name}} must be a number`);
  return value;
}

function formatNumber(value: number, style: 'plain' | 'currency', locale: string): string {
  if (style === 'plain') return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
  const cents = !Number.isInteger(value);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: cents ? 2 : 0,
    maximumFractionDigits: cents ? 2 : 0,
  }).format(value);
}

/** A recursive descent over one template; `position` moves forward only. */
class Parser {
  private position = 0;

  constructor(private readonly template: string) {}

  parseAll(): Node[] {
    const nodes = this.parseMessage(false);
    if (this.position < this.template.length) this.fail('an unmatched }');
    return nodes;
  }

  /** Text and arguments up to a closing brace (inside an option) or the end. */
  private parseMessage(inPlural: boolean): Node[] {
    const nodes: Node[] = [];
    let text = '';
    const flush = () => {
      if (text) nodes.push({ kind: 'text', text });
      text = '';
    };
    while (this.position < this.template.length) {
      const character = this.template[this.position];
      if (character === '}') break;
      if (character === '{') {
        flush();
        nodes.push(this.parseArgument(inPlural));
      } else if (character === '#' && inPlural) {
        flush();
        nodes.push({ kind: 'pound' });
        this.position += 1;
      } else {
        text += character;
        this.position += 1;
      }
    }
    flush();
    return nodes;
  }

  private parseArgument(inPlural: boolean): Node {
    this.expect('{');
    const name = this.word();
    if (this.peek() === '}') {
      this.expect('}');
      return { kind: 'value', name };
    }
    this.expect(',');
    const type = this.word();
    if (type === 'number') {
      let style: 'plain' | 'currency' = 'plain';
      if (this.peek() === ',') {
        this.expect(',');
        const given = this.word();
        if (given !== 'currency') this.fail(`an unknown number style "${given}"`);
        style = 'currency';
      }
      this.expect('}');
      return { kind: 'number', name, style };
    }
    if (type !== 'plural' && type !== 'select') this.fail(`an unknown argument type "${type}"`);
    this.expect(',');
    const options = new Map<string, Node[]>();
    while (this.peek() !== '}') {
      const key = this.word();
      this.expect('{');
      options.set(key, this.parseMessage(type === 'plural' || inPlural));
      this.expect('}');
    }
    this.expect('}');
    if (!options.has('other')) this.fail(`a ${type} of {${name}} without an "other" option`);
    return { kind: type, name, options };
  }

  /** A name, type or option key, white space around it skipped. */
  private word(): string {
    this.skipSpace();
    const match = /^[=A-Za-z0-9_]+/.exec(this.template.slice(this.position));
    if (!match) this.fail('a name');
    this.position += match![0].length;
    this.skipSpace();
    return match![0];
  }

  private peek(): string | undefined {
    this.skipSpace();
    return this.template[this.position];
  }

  private expect(character: string): void {
    this.skipSpace();
    if (this.template[this.position] !== character) this.fail(`"${character}"`);
    this.position += 1;
  }

  private skipSpace(): void {
    while (/\s/.test(this.template[this.position] ?? '')) this.position += 1;
  }

  private fail(expected: string): never {
    throw new Error(`message template expected ${expected} at ${this.position}: ${this.template}`);
  }
}
