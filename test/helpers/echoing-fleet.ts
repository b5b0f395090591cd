import { DEFAULT_CREDENTIALS } from '../../src/sandbox/index.js';

const { applicationPassword, token } = DEFAULT_CREDENTIALS;

/** A secret of a front end's own (the tool server's HTTP bearer token, say) that no answer may carry. */
export const FRONT_END_SECRET = 'front-end-secret-0123456789';

/**
 * The plugin's display name on site 1 quotes the login's password, on site 2 the API token, on
 * site 3 a front end's own secret; site 4 quotes nothing.
 */
export const ECHOING_FLEET = `
sites:
  - id: 1
    url: https://one.example.test/
    plugins:
      akismet/akismet.php: { name: "Shop ${applicationPassword}", version: 5.3.6, update: 5.3.7 }
  - id: 2
    url: https://two.example.test/
    plugins:
      akismet/akismet.php: { name: "Blog ${token}", version: 5.3.6, update: 5.3.7 }
  - id: 3
    url: https://three.example.test/
    plugins:
      akismet/akismet.php: { name: "Docs ${FRONT_END_SECRET}", version: 5.3.6, update: 5.3.7 }
  - id: 4
    url: https://four.example.test/
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
`;
