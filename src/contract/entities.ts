/**
 * Response shapes the API sends and the panel reads. Each is the type of a zod schema
 * in ./schemas, the one the API states as its response schema (so /api/docs shows it and the reply is
 * serialised by it): the shape is written once.
 */
import type { z } from 'zod';
import type { accountEntity, accountMessageEntity, macSearchResultEntity, renewalQuoteEntity, renewalResultEntity, stbInfoEntity } from './schemas/accounts';
import type { signInEventEntity, signInHistoryAnswer, sessionRowEntity } from './schemas/sessions';
import type { currentUserEntity, loginResponseEntity, sessionEntity, twoFactorChallengeEntity, twoFactorSetupEntity, twoFactorStatusEntity } from './schemas/auth';
import type { apiErrorBody, listMetaSchema, namedRefEntity, userRefEntity } from './schemas/common';
import type { creditOptionsResponseEntity, creditOptionsTestResultEntity, recoveryOptionsResponseEntity } from './schemas/credits';
import type { globalDiscountEntity } from './schemas/globalDiscounts';
import type { creditMoveResultEntity, hierarchyUserEntity, recoveryHistoryItemEntity, transactionEntryEntity } from './schemas/hierarchy';
import type { serverBreakerEntity, serverEntity, serverOptionEntity } from './schemas/servers';
import type { publicConfigEntity, themeTokensEntity } from './schemas/system';
import type { themeEntity } from './schemas/themes';
import type { ticketCategoryEntity } from './schemas/ticketCategories';
import type { userPromoEntity } from './schemas/userPromos';

export type ListMeta = z.infer<typeof listMetaSchema>;

export interface Paginated<T> {
  data: T[];
  meta: ListMeta;
}

export type ValidationErrorBody = Required<z.infer<typeof apiErrorBody>>;

export type CurrentUser = z.infer<typeof currentUserEntity>;

export type LoginResponse = z.infer<typeof loginResponseEntity>;

export type SessionAnswer = z.infer<typeof sessionEntity>;

export type SessionRow = z.infer<typeof sessionRowEntity>;

export type SignInEvent = z.infer<typeof signInEventEntity>;

export type SignInHistory = z.infer<typeof signInHistoryAnswer>;

export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeEntity>;

export type TwoFactorStatus = z.infer<typeof twoFactorStatusEntity>;

export type TwoFactorSetup = z.infer<typeof twoFactorSetupEntity>;

export type PublicConfig = z.infer<typeof publicConfigEntity>;

export type ThemeTokens = z.infer<typeof themeTokensEntity>;

export type TicketCategory = z.infer<typeof ticketCategoryEntity>;

export type UserRef = z.infer<typeof userRefEntity>;

export type NamedRef = z.infer<typeof namedRefEntity>;

/** A manager, reseller or dealer as the API shows it. Panel users' passwords are never returned. */
export type HierarchyUser = z.infer<typeof hierarchyUserEntity>;

/** One ledger entry as the transaction lists show it (docs/domain.md#transactions). */
export type TransactionEntry = z.infer<typeof transactionEntryEntity>;

/** GET /credit-options/allocation: { data: CreditOptionsResponse }. */
export type CreditOptionsResponse = z.infer<typeof creditOptionsResponseEntity>;

/** GET .../credits/recovery-options and /credit-options/recovery/{id}: { data: RecoveryOptionsResponse }. */
export type RecoveryOptionsResponse = z.infer<typeof recoveryOptionsResponseEntity>;

/** POST .../credits answer: { message, data: CreditMoveResult }. */
export type CreditMoveResult = z.infer<typeof creditMoveResultEntity>;

/** GET /dealers/{id}/credits/recovery-history rows: allocations the dealer received. */
export type RecoveryHistoryItem = z.infer<typeof recoveryHistoryItemEntity>;

/** A middleware database server. Its password is write-only: only has_password is ever sent. */
export type Server = z.infer<typeof serverEntity>;

/** A server's circuit breaker as the API process answering holds it. */
export type ServerBreaker = z.infer<typeof serverBreakerEntity>;

/** What every role's server pickers read (GET /servers/public). */
export type ServerOption = z.infer<typeof serverOptionEntity>;

export type Theme = z.infer<typeof themeEntity>;

export type ServerRef = NamedRef;

export type UserPromo = z.infer<typeof userPromoEntity>;

export type GlobalDiscount = z.infer<typeof globalDiscountEntity>;

export type CreditOptionsTestResult = z.infer<typeof creditOptionsTestResultEntity>;

/** An end-user account. */
export type Account = z.infer<typeof accountEntity>;

/** GET /accounts/{id}/stb-info: { data: StbInfo }. */
export type StbInfo = z.infer<typeof stbInfoEntity>;

/** The price of a renewal of `months` on a server (POST /global-discounts/calculate-credits). */
export type RenewalQuote = z.infer<typeof renewalQuoteEntity>;

/** What a renewal or recovery did (POST /accounts/{id}/credits, bulk-renew). */
export type RenewalResult = z.infer<typeof renewalResultEntity>;

export type AccountMessage = z.infer<typeof accountMessageEntity>;

/** GET /mac-search answer: { data: MacSearchResult }. */
export type MacSearchResult = z.infer<typeof macSearchResultEntity>;
