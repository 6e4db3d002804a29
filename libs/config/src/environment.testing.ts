/**
 * For specs of the environment classes: the message `validate` refuses `raw` with, and an error
 * (failing the test) when it accepts it instead.
 */
export function refusalOf(validate: (raw: Record<string, unknown>) => unknown) {
  return (raw: Record<string, unknown>): string => {
    try {
      validate(raw);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      return error.message;
    }
    throw new Error(`accepted ${JSON.stringify(raw)}`);
  };
}
