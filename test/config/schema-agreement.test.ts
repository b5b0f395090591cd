import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { DESIRED_STATE_SCHEMA } from '../../src/config/index.js';
import { HANDLED_KEYS, KIND_NAMES } from '../../src/config/normalise.js';
import type { IgnoreScope, ItemKind, VersionLevel } from '../../src/types.js';

type Node = Record<string, unknown> & { properties?: Record<string, Node>; $defs?: Record<string, Node> };
const schema = DESIRED_STATE_SCHEMA as Node;
const defs = schema.$defs!;
const props = (node: Node | undefined) => Object.keys(node?.properties ?? {}).sort();
const sorted = (keys: readonly string[]) => [...keys].sort();

/** Every object in the schema that declares properties, by the name the normaliser uses. */
const OBJECTS: Record<keyof typeof HANDLED_KEYS, Node | undefined> = {
  document: schema,
  ignores: schema.properties?.ignores,
  rollout: schema.properties?.rollout,
  approval: schema.properties?.approval,
  selection: defs.selection?.else as Node,
  ignoreRule: defs.ignoreRule,
  siteFlags: defs.ignoreRule?.properties?.site_flags,
  updatePolicy: defs.updatePolicy,
  hold: defs.hold,
  wave: defs.wave,
  window: defs.window,
  waveAfter: defs.wave?.properties?.after,
  health: defs.health,
  healthPath: defs.healthPath,
  security: schema.properties?.security,
  securityApproval: schema.properties?.security?.properties?.approval,
  feed: defs.feed,
};

describe('the schema and the TypeScript agree', () => {
  it('is a valid draft 2020-12 schema that compiles in strict mode', () => {
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false });
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  for (const [name, node] of Object.entries(OBJECTS)) {
    it(`the normaliser handles every property of ${name}`, () => {
      expect(node, name).toBeDefined();
      expect(sorted(HANDLED_KEYS[name as keyof typeof HANDLED_KEYS])).toEqual(props(node));
    });
  }

  it('no schema object with properties is left out of that list', () => {
    const found: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (typeof node !== 'object' || node === null) return;
      const n = node as Node;
      if (n.properties) found.push(where);
      for (const [k, v] of Object.entries(n)) if (k !== 'properties') walk(v, `${where}/${k}`);
      for (const [k, v] of Object.entries(n.properties ?? {})) walk(v, `${where}/properties/${k}`);
    };
    walk(schema, '#');
    expect(found.length).toBe(Object.keys(OBJECTS).length);
  });

  it('every object is closed, so misspelled keys are reported', () => {
    for (const [name, node] of Object.entries(OBJECTS)) {
      expect(node?.additionalProperties, name).toBe(false);
    }
  });

  it('enums match the domain types', () => {
    const scopes: IgnoreScope[] = ['remove', 'keep', 'report'];
    const levels: VersionLevel[] = ['none', 'patch', 'minor', 'major'];
    const kinds: ItemKind[] = ['core', 'plugin', 'theme', 'translation'];
    expect(schema.properties?.ignores?.properties?.unmanaged?.enum).toEqual(scopes);
    expect(defs.versionLevel!.enum).toEqual(levels);
    expect(sorted(defs.kind!.enum as string[])).toEqual(sorted(Object.keys(KIND_NAMES)));
    expect(sorted(Object.values(KIND_NAMES))).toEqual(sorted(kinds));
  });

  it('states the documented decisions in its descriptions', () => {
    const text = JSON.stringify(schema);
    expect(text).toContain('Default `report` (the safe choice)');
    expect(text).toContain('An empty selection is an error');
    expect(text).toContain('PHP version_compare');
    expect(text).toContain('up to four parts');
    expect(text).toContain('4 MiB');
  });

  it('every definition is used and every property is described', () => {
    const text = JSON.stringify(schema);
    for (const name of Object.keys(defs)) expect(text, name).toContain(`"#/$defs/${name}"`);
    const undocumented: string[] = [];
    const walk = (node: Node, where: string) => {
      for (const [k, v] of Object.entries(node.properties ?? {})) {
        const described = typeof v.description === 'string' || typeof v.$ref === 'string';
        if (!described) undocumented.push(`${where}.${k}`);
        walk(v, `${where}.${k}`);
      }
    };
    walk(schema, '');
    for (const [name, def] of Object.entries(defs)) {
      walk(def, name);
      if (def.else) walk(def.else as Node, name);
    }
    expect(undocumented).toEqual([]);
  });
});
