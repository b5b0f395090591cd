/** The package's version, as `package.json` has it (test/cli/help.test.ts checks they agree). */
export const VERSION = '0.1.0';
