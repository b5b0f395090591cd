/**
 * The canonical JSON of an action the planner builds, written by hand: a fleet's plan holds
 * tens of thousands, and both its id (a hash of the canonical JSON) and its saved file (one
 * action per line, keys sorted: the same text) write every one of them. JSON.stringify walks
 * each record and escapes each string anew; this writer writes an action from a few large,
 * remembered pieces instead, each distinct string escaped once.
 *
 * Only records holding exactly the planner's fields, each of its type, are written here; for
 * anything else the writer answers undefined and the caller uses the general writer
 * (canonical-json.ts), so the text is always exactly the canonical JSON. Tests compare the two
 * on hostile records.
 */

type Quote = (text: string) => string;

/** JSON.stringify of each distinct string, once per writer. */
function quoteOncePerString(): Quote {
  const quoted = new Map<string, string>();
  return (text) => {
    let json = quoted.get(text);
    if (json === undefined) {
      json = JSON.stringify(text);
      quoted.set(text, json);
    }
    return json;
  };
}

/**
 * An action's keys in code-unit order, by which optional fields it has (1: from, 2: to, 4: wave).
 * A planner's record, or one read back from a saved plan, lists its keys in this order.
 */
const ACTION_KEYS: ReadonlyArray<readonly string[]> = Array.from({ length: 8 }, (_, optional) => [
  ...(optional & 1 ? ['from'] : []),
  ...['kind', 'name', 'op', 'reason', 'risk', 'site_id', 'site_url', 'slug'],
  ...(optional & 2 ? ['to'] : []),
  ...(optional & 4 ? ['wave'] : []),
]);

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (
    (prototype === Object.prototype || prototype === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

function optionalText(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

/**
 * The JSON from `"kind"` to `"site_id":` of an action: the part fixed by its item and verdict,
 * which a fleet repeats on every site. Remembered by name and reason, and checked against kind,
 * operation and risk before it is reused, so a segment is never written for another action.
 */
function middleSegments(quote: Quote) {
  interface Segment {
    kind: string;
    op: string;
    risk: string;
    text: string;
  }
  const byName = new Map<string, Map<string, Segment>>();
  return (kind: string, name: string, op: string, reason: string, risk: string): string => {
    let byReason = byName.get(name);
    if (!byReason) {
      byReason = new Map();
      byName.set(name, byReason);
    }
    let segment = byReason.get(reason);
    if (!segment || segment.kind !== kind || segment.op !== op || segment.risk !== risk) {
      const text = `"kind":${quote(kind)},"name":${quote(name)},"op":${quote(op)},"reason":${quote(reason)},"risk":${quote(risk)},"site_id":`;
      segment = { kind, op, risk, text };
      byReason.set(reason, segment);
    }
    return segment.text;
  };
}

/**
 * The canonical JSON of an action holding the planner's fields and no others, each of its
 * type; undefined for anything else (the caller writes that with the general writer). An
 * optional member present as `undefined` counts as another field, so it takes the general path.
 *
 * Written in a few large pieces (each one a node of the string the hash reads): the segment an
 * item and verdict fix, the site's segment and the wave's end, each remembered while it repeats.
 */
export function actionJsonWriter(): (value: unknown) => string | undefined {
  return actionWriter(false);
}

/**
 * The writer for actions createPlan has just built (updateAction, ignoreAction): records of
 * Object.prototype whose keys are the planner's, in code-unit order, never another. Their key
 * lists and prototype are therefore not checked again (an Object.keys array per action is most
 * of what the check costs); their values still are, and anything else gets undefined.
 */
export function plannedActionJsonWriter(): (value: unknown) => string | undefined {
  return actionWriter(true);
}

function actionWriter(planned: boolean): (value: unknown) => string | undefined {
  const quote = quoteOncePerString();
  const middle = middleSegments(quote);
  let siteId = Number.NaN;
  let siteUrl: string | undefined;
  let siteSegment = '';
  let wave: string | undefined;
  let waveEnd = '}';
  return (input) => {
    if (planned ? input === null || typeof input !== 'object' : !isPlainRecord(input)) return undefined;
    const value = input as Record<string, unknown>;
    const { from, kind, name, op, reason, risk, site_id, site_url, slug, to } = value;
    if (
      typeof kind !== 'string' ||
      typeof name !== 'string' ||
      typeof op !== 'string' ||
      typeof reason !== 'string' ||
      typeof risk !== 'string' ||
      typeof site_id !== 'number' ||
      !Number.isFinite(site_id) ||
      typeof site_url !== 'string' ||
      typeof slug !== 'string' ||
      !optionalText(from) ||
      !optionalText(to) ||
      !optionalText(value.wave)
    ) {
      return undefined;
    }
    // The record's own enumerable keys must be exactly the fields written, in that (sorted)
    // order: a value read here but not among them (inherited, hidden) sends it the general way.
    // (A planner's record holds only these keys, in this order, with undefined members left out
    // here as in canonical JSON: its text is the same.)
    if (!planned) {
      const keys = Object.keys(value);
      const optional =
        (from === undefined ? 0 : 1) | (to === undefined ? 0 : 2) | (value.wave === undefined ? 0 : 4);
      const expected = ACTION_KEYS[optional] as readonly string[];
      if (keys.length !== expected.length) return undefined;
      for (let i = 0; i < keys.length; i++) if (keys[i] !== expected[i]) return undefined;
    }
    if (!Object.is(site_id, siteId) || site_url !== siteUrl) {
      siteId = site_id;
      siteUrl = site_url;
      // A finite number's JSON is its String() form (-0 included: "0").
      siteSegment = `${String(site_id)},"site_url":${JSON.stringify(site_url)},"slug":`;
    }
    if (value.wave !== wave) {
      wave = value.wave;
      waveEnd = wave === undefined ? '}' : `,"wave":${quote(wave)}}`;
    }
    // Keys in code-unit order: from, kind, name, op, reason, risk, site_id, site_url, slug, to, wave.
    const head = from === undefined ? '{' : `{"from":${quote(from)},`;
    const tail = to === undefined ? waveEnd : `,"to":${quote(to)}${waveEnd}`;
    return `${head}${middle(kind, name, op, reason, risk)}${siteSegment}${quote(slug)}${tail}`;
  };
}
