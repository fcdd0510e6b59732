// The lists themselves are the contracts' (@kontrol/contracts reference-lists.ts): the server
// preloads the same addresses for a signed-in page.
export { REFERENCE_LISTS, REFERENCE_ROLES, type ReferenceListName } from '@kontrol/contracts';
