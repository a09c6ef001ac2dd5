/**
 * Operation ids in the order a client meets them. Swagger UI lists the
 * operations of each tag in the order of the document's paths, so the paths
 * are written in this order rather than alphabetically; a test checks that
 * every operation has its place here.
 */
export const OPERATION_FLOW: readonly string[] = [
  // The front door and probes.
  'describeService',
  // accounts
  'registerUser',
  'loginUser',
  'requestEmailVerification',
  'verifyEmailAddress',
  'getUserProfile',
  'updateUserProfile',
  'identityProviderCallback',
  'requestPasswordReset',
  'resetPassword',
  'requestPasswordChange',
  'changePassword',
  // entities
  'createEntity',
  'listEntities',
  'getEntity',
  'retrieveEntityByMetaKey',
  'updateEntity',
  'trashEntity',
  'trashEntityByDelete',
  'restoreEntity',
  // storefront
  'getStorefront',
  'getStorefrontQrPng',
  'getStorefrontQrSvg',
  'getStorefrontQrSheet',
  'getSlots',
  // menus as files
  'exportMenuJson',
  'exportMenuCsv',
  'importMenu',
  // orders
  'quoteDelivery',
  'quoteOrder',
  'placeOrder',
  'getGuestOrder',
  'streamGuestOrder',
  'notifyOrderOwner',
  'cancelGuestOrder',
  'listOrders',
  'getOrder',
  'streamOrders',
  'updateOrder',
  // the kitchen's pace
  'getAvailability',
  'setAvailability',
  // orders taken by the team, tabs
  'placeStaffOrder',
  'listTabs',
  'getTab',
  'getGuestTab',
  'streamGuestTab',
  'splitTab',
  'splitGuestTab',
  'payTabShare',
  'payGuestTabShare',
  'closeTab',
  // payments
  'retryOrderPayment',
  'createOrderPayment',
  'submitOrderPaymentOtp',
  'verifyOrderPayment',
  'receivePaystackWebhook',
  'refundOrder',
  // notifications
  'listNotifications',
  'markNotificationsRead',
  'listNotificationSettings',
  'saveNotificationSetting',
  // discount codes
  'createDiscount',
  'listDiscounts',
  'getDiscount',
  'updateDiscount',
  'deleteDiscount',
  // stock
  'listStock',
  'adjustStock',
  'readStockLedger',
  // webhooks
  'createWebhook',
  'listWebhooks',
  'getWebhook',
  'updateWebhook',
  'pingWebhook',
  'listWebhookDeliveries',
  'redeliverWebhook',
  'rotateWebhookSecret',
  'deleteWebhook',
  // guest messages
  'listGuestMessages',
  'stopGuestMessages',
  'verifyWhatsAppWebhook',
  'receiveWhatsAppWebhook',
  // teams
  'inviteMember',
  'acceptInvitation',
  'listMemberships',
  'listMembers',
  'changeMemberRole',
  'removeMember',
  // reports
  'getSalesReport',
  'getItemsReport',
  'exportOrdersCsv',
  // kitchen
  'listKitchenTickets',
  'streamKitchenTickets',
  'moveTicketLine',
  'bumpTicket',
  'getDocketText',
  'getDocketBytes',
  // files
  'createUploadUrls',
  'createUploadUrlsAws',
  'uploadLocalFile',
  'readLocalFile',
  // health, operations
  'checkLiveness',
  'checkReadiness',
  'scrapeMetrics',
];

type PathItem = Record<string, unknown>;

function rankOf(operationId: unknown): number {
  const index = OPERATION_FLOW.indexOf(operationId as string);
  return index < 0 ? OPERATION_FLOW.length : index;
}

function operationRank(value: unknown): number {
  return value && typeof value === 'object' && 'operationId' in value
    ? rankOf((value as { operationId: unknown }).operationId)
    : -1;
}

/**
 * The paths in flow order (an operation not in the list goes last, by path),
 * and within each path its operations in flow order; shared entries such as
 * `parameters` come first.
 */
export function orderPaths(paths: Record<string, PathItem>): Record<string, PathItem> {
  const ordered = Object.entries(paths).map(([path, item]) => {
    const entries = Object.entries(item).sort(
      ([a, x], [b, y]) => operationRank(x) - operationRank(y) || a.localeCompare(b),
    );
    const ranks = entries.map(([, value]) => operationRank(value)).filter((rank) => rank >= 0);
    return { path, item: Object.fromEntries(entries), rank: Math.min(...ranks) };
  });
  ordered.sort((a, b) => a.rank - b.rank || a.path.localeCompare(b.path));
  return Object.fromEntries(ordered.map(({ path, item }) => [path, item]));
}
