/** Public surface of git: reading a pull request's base desired-state files with the git CLI. */
export { type BaseConfig, type BaseConfigOptions, readBaseConfig } from './base-config.js';
