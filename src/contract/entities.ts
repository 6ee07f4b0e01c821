/** Response shapes the API sends and the panel reads (spec section 3). */
import type { Role } from './roles';

export interface ListMeta {
  total: number;
  current_page: number;
  per_page: number;
  last_page: number;
  from: number | null;
  to: number | null;
}

export interface Paginated<T> {
  data: T[];
  meta: ListMeta;
}

export interface ValidationErrorBody {
  message: string;
  errors: Record<string, string[]>;
}

export interface CurrentUser {
  id: number;
  name: string;
  username: string;
  phone: string | null;
  role: Role;
  /** Total balance (paid plus bonus); null for admin, who holds none. */
  credits: number | null;
  bonus_credits: number | null;
  server_id: number | null;
  is_active: boolean;
  created_at: string;
}

export interface LoginResponse {
  token: string;
  user: CurrentUser;
}

export interface PublicConfig {
  demo_mode: boolean;
  demo_users: string[];
  maintenance_mode: boolean;
  theme: ThemeTokens | null;
}

export interface ThemeTokens {
  name: string;
  slug: string;
  colorPrimary?: string;
  colorBgLayout?: string;
  borderRadius?: number;
  algorithm?: 'default' | 'dark' | 'compact';
}

export interface TicketCategory {
  id: number;
  name: string;
  description: string | null;
  is_active: boolean;
  tickets_count: number;
  created_at: string;
  updated_at: string;
}

export interface UserRef {
  id: number;
  name: string;
  username: string;
  role: Role;
}
