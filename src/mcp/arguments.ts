import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Checks a tool's arguments against its own input schema (the server's tools; the dashboard
 * checks its abilities' input itself). Returns the problems as one sentence, or undefined.
 */
export function argumentChecker(schema: Record<string, unknown>): (args: unknown) => string | undefined {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate: ValidateFunction = ajv.compile(schema);
  return (args) => {
    if (validate(args)) return undefined;
    return (validate.errors ?? [])
      .map((error) => {
        if (error.keyword === 'additionalProperties') {
          return `unknown parameter "${String(error.params.additionalProperty)}"`;
        }
        const at = error.instancePath.replace(/^\//, '');
        return `${at === '' ? 'the arguments' : `"${at}"`} ${error.message ?? 'are invalid'}`;
      })
      .join('; ');
  };
}
