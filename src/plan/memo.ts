/**
 * Memos for one createPlan call (never module-level: a plan's memory ends with it). A fleet
 * asks the same few questions thousands of times: each distinct one is answered once.
 */

/** `measure(a, b)` remembered per distinct pair. */
export function memoPairs<T>(measure: (a: string, b: string) => T): (a: string, b: string) => T {
  const results = new Map<string, Map<string, T>>();
  return (a, b) => {
    let byB = results.get(a);
    if (!byB) {
      byB = new Map();
      results.set(a, byB);
    }
    let result = byB.get(b);
    if (result === undefined) {
      result = measure(a, b);
      byB.set(b, result);
    }
    return result;
  };
}
