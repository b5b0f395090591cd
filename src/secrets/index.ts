export { MASK, SecretMask } from './mask.js';
export { MIN_RUN, secretSpellings, strongFragment, wordlike } from './spellings.js';
