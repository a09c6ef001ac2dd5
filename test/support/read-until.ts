/**
 * Reads until `accept` holds, at most `attempts` times, 50 ms apart;
 * answers the last read. For what another process hears of a change
 * (a NOTIFY), which arrives within milliseconds but not at once.
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  attempts = 40,
): Promise<T> {
  let value = await read();
  for (let i = 1; i < attempts && !accept(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}
