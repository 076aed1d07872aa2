/**
 * What an `argument_hint` declares. SEMANTICS §1 leaves the hint free text; this
 * library reads one convention from it: `<name>` outside every `[...]` is a
 * required argument, `[<name>]` an optional one.
 */

/**
 * True when `hint` has a `<...>` argument outside every `[...]`:
 * `<prompt>` is required, `[<model>]` is optional, `""` takes none.
 */
export function hintRequiresArguments(hint: string): boolean {
  let depth = 0;
  for (let i = 0; i < hint.length; i++) {
    const char = hint[i];
    if (char === '[') depth++;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (char === '<' && depth === 0 && hint.indexOf('>', i + 1) !== -1) return true;
  }
  return false;
}
