import { OfflineProvider } from './payment-provider';

/** The fields of the menu's bank_transfer entry the guest is shown, as the owner wrote them. */
const INSTRUCTION_FIELDS = [
  'title',
  'description',
  'account_name',
  'account_number',
  'bank_name',
] as const;

/**
 * Bank transfer: the guest is shown the owner's account details and the
 * owner marks the order paid when the money arrives.
 */
export class BankTransferProvider extends OfflineProvider {
  readonly name = 'bank_transfer';

  override instructions(menuEntry: Record<string, unknown> | null): Record<string, unknown> | null {
    if (!menuEntry) return null;
    const instructions: Record<string, unknown> = {};
    for (const field of INSTRUCTION_FIELDS) {
      const value = menuEntry[field];
      if (typeof value === 'string' || typeof value === 'number') {
        instructions[field] = typeof value === 'number' ? String(value) : value;
      } else if (field === 'title' || field === 'description') {
        instructions[field] = null;
      }
    }
    return instructions;
  }
}
