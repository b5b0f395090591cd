/**
 * The desired-state format: YAML files → a validated, normalised DesiredState or located
 * diagnostics. Public surface of src/config; everything else in this folder is internal.
 * Pure of network I/O: files are read through the `fs` the caller passes in.
 */

export { addVersionHolds, type VersionHold } from './add-holds.js';
export {
  CLI_CONFIG_CHOICE,
  type ConfigChoice,
  DEFAULT_CONFIG_DIR,
  DEFAULT_CONFIG_FILE,
  resolveConfigPath,
} from './default-path.js';
export { closest } from './did-you-mean.js';
export { type ImportResult, importDesiredState } from './import-yaml.js';
export { type JsonSchemaCheck, jsonSchemaCheck, planFileCheck } from './json-schema.js';
export { LIMITS } from './limits.js';
export { type LoadOptions, type LoadResult, loadDesiredState } from './load.js';
export { DESIRED_STATE_SCHEMA, DESIRED_STATE_SCHEMA_URL } from './schema.js';
