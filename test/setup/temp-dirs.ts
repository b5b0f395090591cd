/**
 * Runs before every test file (vitest.config.ts setupFiles): whatever tempDirForFile made during
 * the file (e2e working directories and HOMEs, settings files) is removed once its tests are done.
 * Registered first, so with vitest's stacked after-hooks it runs after the file's own afterAll
 * (sandboxes that keep a state file there are closed by then).
 */
import { removeTempDirsAfterFile } from '../helpers/temp-dir.js';

removeTempDirsAfterFile();
