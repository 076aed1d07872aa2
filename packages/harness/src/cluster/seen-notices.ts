/**
 * The notifications this instance has delivered, by sender and serial, so
 * that one sent twice is delivered once. A sender's NOTIFY whose commit went
 * through but whose acknowledgement was lost (a connection dropped, the server
 * restarted) is tried again, and PostgreSQL delivers both. The copy follows
 * the original closely, so the last `perSender` serials of each of the last
 * `senders` senders are enough to know it.
 */
export class SeenNotices {
  private readonly bySender = new Map<string, Set<number>>();

  constructor(
    private readonly perSender = 4096,
    private readonly senders = 1024,
  ) {}

  /** True the first time `serial` of `sender` is seen; false for a copy. */
  firstTime(sender: string, serial: number): boolean {
    let seen = this.bySender.get(sender);
    if (seen?.has(serial)) return false;
    if (seen) this.bySender.delete(sender);
    else seen = new Set();
    // Most recently heard last: the first is the one to forget.
    this.bySender.set(sender, seen);
    if (this.bySender.size > this.senders) this.bySender.delete(this.bySender.keys().next().value!);
    seen.add(serial);
    if (seen.size > this.perSender) seen.delete(seen.values().next().value!);
    return true;
  }
}
