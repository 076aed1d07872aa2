/** How many ended turns are remembered, over all tasks: late events come within seconds. */
const REMEMBERED = 10_000;

/**
 * The turns whose final event this process has delivered. An instance whose
 * turns were taken over may still be streaming when the survivor's final
 * event arrives; what it sends after that must reach no client.
 */
export class EndedTurns {
  private readonly keys = new Set<string>();

  add(taskId: string, turnId: string): void {
    if (turnId === '') return;
    const key = keyOf(taskId, turnId);
    this.keys.delete(key);
    this.keys.add(key);
    if (this.keys.size > REMEMBERED) this.keys.delete(this.keys.values().next().value!);
  }

  has(taskId: string, turnId: string): boolean {
    return this.keys.has(keyOf(taskId, turnId));
  }
}

function keyOf(taskId: string, turnId: string): string {
  return `${taskId} ${turnId}`;
}
