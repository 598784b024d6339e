import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { Organization, Partner, Site } from '../../contract';
import type { AppContext } from '../../context';
import { type AuthContext, type UserAuth } from '../../http/auth-context';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../http/errors';
import { IpRanges, parseRange } from '../../http/ip';
import { paginated, type PageRequest } from '../../http/pagination';
import {
  requireFullPartnerAccess,
  requireOrgAccess,
  requireSiteAccess,
  resolveOrgScope,
  siteRestriction,
} from '../../http/scope';
import { cancelPartnerUninstalls, queuePartnerUninstalls, severPartnerAgents } from '../agents/offboarding';
import { auditCaller } from '../audit/caller';
import type {
  CreateOrganizationBody,
  CreatePartnerBody,
  CreateSiteBody,
  PartnerSettingsPatch,
  UpdateOrganizationBody,
  UpdateOwnPartnerBody,
  UpdatePartnerBody,
  UpdateSiteBody,
} from './schemas';
import {
  parseObject,
  readMode,
  TenancyStore,
  toOrganization,
  toPartner,
  toSite,
  type OrganizationColumns,
  type PartnerColumns,
  type PartnerRow,
  type SiteColumns,
} from './store';

// The rules of /orgs (spec 1): who may reach which partner, organization and site, how partner settings merge and
// validate, what partner offboarding revokes, and the audit entry of every write.

type Json = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Merges `patch` into `base`: nested plain objects merge key by key, anything else (scalars, arrays, null)
 * replaces. Returns a new object; neither input is modified.
 */
export function deepMerge(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const current = out[key];
    out[key] = isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : value;
  }
  return out;
}

/** The dotted paths a patch sends, down to `depth` levels: `timezone`, `security.ipAllowlist`, ... */
function sentPaths(patch: Json, prefix: string, depth: number): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const path = `${prefix}${key}`;
    if (depth > 1 && isPlainObject(value) && Object.keys(value).length > 0)
      out.push(...sentPaths(value, `${path}.`, depth - 1));
    else out.push(path);
  }
  return out;
}

const definedKeys = (body: object): string[] =>
  Object.entries(body)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);

const SLUG_TAKEN = 'SLUG_TAKEN';

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export class TenancyService {
  readonly store: TenancyStore;

  constructor(private readonly ctx: AppContext) {
    this.store = new TenancyStore(ctx.db);
  }

  // ---- scope gates ----------------------------------------------------------------------------------------------

  requireSystem(auth: AuthContext): void {
    if (auth.scope !== 'system') throw forbidden('System scope required', 'SYSTEM_SCOPE_REQUIRED');
  }

  requirePartnerScope(auth: AuthContext): asserts auth is UserAuth & { partnerId: string } {
    if (auth.kind !== 'user' || auth.scope !== 'partner' || !auth.partnerId)
      throw forbidden('Partner scope required', 'PARTNER_SCOPE_REQUIRED');
  }

  requirePartnerOrSystem(auth: AuthContext): void {
    if (auth.scope !== 'partner' && auth.scope !== 'system')
      throw forbidden('Partner or system scope required');
  }

  private audit(
    req: Request,
    auth: AuthContext,
    entry: {
      orgId: string | null;
      partnerId?: string;
      action: string;
      resourceType: 'partner' | 'organization' | 'site';
      resourceId: string;
      resourceName: string;
      details?: Json;
    },
  ): void {
    auditCaller(this.ctx, req, auth, entry);
  }

  // ---- partners -------------------------------------------------------------------------------------------------

  listPartners(auth: AuthContext, page: PageRequest) {
    this.requireSystem(auth);
    const { rows, total } = this.store.listPartners(page);
    return paginated(rows.map(toPartner), page, total);
  }

  private livePartner(id: string): PartnerRow {
    const row = this.store.partner(id);
    if (!row) throw notFound('Partner not found');
    return row;
  }

  getPartner(auth: AuthContext, id: string): Partner {
    this.requireSystem(auth);
    return toPartner(this.livePartner(id));
  }

  createPartner(req: Request, auth: AuthContext, body: CreatePartnerBody): Partner {
    this.requireSystem(auth);
    const at = new Date().toISOString();
    const id = randomUUID();
    let adminRoleId: string;
    try {
      adminRoleId = this.ctx.db.transaction(() => {
        if (this.store.slugTaken(body.slug))
          throw conflict('A partner with this slug already exists', SLUG_TAKEN);
        return this.store.insertPartner({
          id,
          name: body.name,
          slug: body.slug,
          type: body.type ?? 'msp',
          plan: body.plan ?? 'free',
          max_organizations: body.maxOrganizations ?? null,
          max_devices: body.maxDevices ?? null,
          settings: '{}',
          service_management_mode: 'native',
          service_management_psa_connection_id: null,
          sso_config: '{}',
          billing_email: body.billingEmail ?? null,
          status: 'active',
          created_at: at,
          updated_at: at,
        });
      })();
    } catch (err) {
      // Two creates racing for one slug: the UNIQUE column decides, the loser gets the same 409.
      if (isUniqueViolation(err)) throw conflict('A partner with this slug already exists', SLUG_TAKEN);
      throw err;
    }
    const partner = toPartner(this.livePartner(id));
    this.audit(req, auth, {
      orgId: null,
      partnerId: id,
      action: 'partner.create',
      resourceType: 'partner',
      resourceId: id,
      resourceName: partner.name,
      details: { slug: partner.slug, type: partner.type, plan: partner.plan, adminRoleId },
    });
    return partner;
  }

  updatePartner(req: Request, auth: AuthContext, id: string, body: UpdatePartnerBody): Partner {
    this.requireSystem(auth);
    const changedFields = definedKeys(body);
    if (changedFields.length === 0) throw badRequest('No updates provided');
    const at = new Date().toISOString();
    let outcome: {
      statusChange: { from: string; to: string } | null;
      revoked: { users: number; apiKeys: number } | null;
      agents: { uninstallsQueued?: number; uninstallsCancelled?: number; credentialsSevered?: number } | null;
    };
    try {
      outcome = this.ctx.db.transaction(() => {
        const row = this.livePartner(id);
        if (body.slug !== undefined && body.slug !== row.slug && this.store.slugTaken(body.slug, id))
          throw conflict('A partner with this slug already exists', SLUG_TAKEN);
        const columns: PartnerColumns = {
          name: body.name,
          slug: body.slug,
          type: body.type,
          plan: body.plan,
          max_organizations: body.maxOrganizations,
          max_devices: body.maxDevices,
          billing_email: body.billingEmail,
          sso_config: body.ssoConfig === undefined ? undefined : JSON.stringify(body.ssoConfig),
          ...this.serviceManagementColumns(row, body),
          updated_at: at,
        };
        // Platform administrators are exempt from the allowlist, so no self-lockout check here.
        if (body.settings) columns.settings = JSON.stringify(this.mergedSettings(row, body.settings, null));
        let statusChange: { from: string; to: string } | null = null;
        let revoked: { users: number; apiKeys: number } | null = null;
        let agents: {
          uninstallsQueued?: number;
          uninstallsCancelled?: number;
          credentialsSevered?: number;
        } | null = null;
        if (body.status !== undefined && body.status !== row.status) {
          statusChange = { from: row.status, to: body.status };
          columns.status = body.status;
          if (body.status === 'offboarding') {
            columns.offboarding_started_at = at;
            revoked = this.revokePartnerAccess(id, 'partner_offboarding', at);
            // Agents stay, narrowed to heartbeats, and collect their uninstall (spec 1, Partner status).
            const queued = queuePartnerUninstalls(this.ctx.db, id, at);
            if (queued) agents = { uninstallsQueued: queued };
          } else if (row.status === 'offboarding') {
            // Leaving offboarding before the reaper finalizes (normally back to `active`) cancels the drain: the
            // users sign in again. API keys revoked at the start stay revoked, because spec 1 makes `revoked`
            // permanent for a key; the partner issues new ones. Agents get full access back with the status;
            // the uninstalls no agent collected yet are cancelled.
            columns.offboarding_started_at = null;
            const cancelled = cancelPartnerUninstalls(this.ctx.db, id, at);
            if (cancelled) agents = { uninstallsCancelled: cancelled };
          }
          // Churn severs the agent credentials for good, however the partner got there (spec 1: the reaper's
          // churn severs them too): reactivating the partner later must not bring its agents back.
          if (body.status === 'churned') {
            const severed = severPartnerAgents(this.ctx.db, id);
            if (severed) agents = { ...agents, credentialsSevered: severed };
          }
        }
        this.store.updatePartner(id, columns);
        return { statusChange, revoked, agents };
      })();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('A partner with this slug already exists', SLUG_TAKEN);
      throw err;
    }
    const { statusChange, revoked, agents } = outcome;
    // Any status but active refuses agent sockets: the live ones close now (offboarded agents keep heartbeating).
    if (statusChange && statusChange.to !== 'active') {
      this.ctx.agentHub.disconnectPartner(id, `partner ${statusChange.to}`);
    }
    const partner = toPartner(this.livePartner(id));
    this.audit(req, auth, {
      orgId: null,
      partnerId: id,
      action: 'partner.update',
      resourceType: 'partner',
      resourceId: id,
      resourceName: partner.name,
      details: {
        changedFields,
        ...(statusChange ? { status: statusChange } : {}),
        ...(revoked ? { revoked } : {}),
        ...(agents ? { agents } : {}),
      },
    });
    return partner;
  }

  deletePartner(req: Request, auth: AuthContext, id: string): { success: true } {
    this.requireSystem(auth);
    const at = new Date().toISOString();
    const outcome = this.ctx.db.transaction(() => {
      const row = this.livePartner(id);
      this.store.updatePartner(id, { deleted_at: at, updated_at: at });
      // Revoked first: the user and key queries follow the organizations, which the cascade below deletes.
      const revoked = this.revokePartnerAccess(id, 'partner_deleted', at);
      // A deleted partner's organizations go with it (soft as well), so no list shows customers of a partner
      // that no longer exists, and the scope resolver, which reads organizations.deleted_at, agrees everywhere.
      const orgs = this.store.softDeletePartnerOrganizations(id, at);
      return { row, orgs, revoked };
    })();
    this.ctx.agentHub.disconnectPartner(id, 'partner deleted');
    this.audit(req, auth, {
      orgId: null,
      partnerId: id,
      action: 'partner.delete',
      resourceType: 'partner',
      resourceId: id,
      resourceName: outcome.row.name,
      details: { organizationsDeleted: outcome.orgs.length, revoked: outcome.revoked },
    });
    for (const org of outcome.orgs) {
      this.audit(req, auth, {
        orgId: org.id,
        action: 'organization.delete',
        resourceType: 'organization',
        resourceId: org.id,
        resourceName: org.name,
        details: { partnerId: id, cause: 'partner.delete' },
      });
    }
    return { success: true };
  }

  /**
   * Ends every way in for the partner's people and integrations at once: each user's refresh tokens are revoked
   * and their token version bumped (every access token dies), and every API key of its organizations is revoked.
   * Runs inside the caller's transaction. OAuth grants do not exist yet; when they do they are revoked here too.
   */
  private revokePartnerAccess(
    partnerId: string,
    reason: string,
    at: string,
  ): { users: number; apiKeys: number } {
    const users = this.store.partnerUserIds(partnerId);
    for (const userId of users) {
      this.ctx.tokens.revokeAllForUser(userId, reason);
      this.ctx.users.bumpTokenVersion(userId);
    }
    return { users: users.length, apiKeys: this.store.revokePartnerApiKeys(partnerId, reason, at) };
  }

  /** Spec 1: the PSA connection id is required when the mode is `external` and must be null otherwise. */
  private serviceManagementColumns(
    row: PartnerRow,
    body: Pick<UpdatePartnerBody, 'serviceManagementMode' | 'serviceManagementPsaConnectionId'>,
  ): PartnerColumns {
    if (body.serviceManagementMode === undefined && body.serviceManagementPsaConnectionId === undefined)
      return {};
    const mode = body.serviceManagementMode ?? readMode(row.service_management_mode);
    const psa =
      body.serviceManagementPsaConnectionId !== undefined
        ? body.serviceManagementPsaConnectionId
        : row.service_management_psa_connection_id;
    if (mode === 'external' && !psa)
      throw badRequest(
        'serviceManagementPsaConnectionId is required when serviceManagementMode is external',
        'PSA_CONNECTION_REQUIRED',
      );
    if (mode !== 'external' && psa)
      throw badRequest(
        'serviceManagementPsaConnectionId must be null unless serviceManagementMode is external',
        'PSA_CONNECTION_NOT_ALLOWED',
      );
    return { service_management_mode: mode, service_management_psa_connection_id: psa };
  }

  /**
   * Stored settings with the patch merged in key by key (nested objects too; a business day and the allowlist
   * are replaced whole), validated as a whole. `caller` is the request of a partner user changing their own
   * partner: their current address must stay inside a non-empty allowlist.
   */
  private mergedSettings(row: PartnerRow, patch: PartnerSettingsPatch, caller: Request | null): Json {
    const current = parseObject(row.settings);
    const allowlist = patch.security?.ipAllowlist;
    let cleanPatch: Json = patch;
    if (allowlist !== undefined) {
      const entries = this.validateAllowlist(allowlist, caller);
      cleanPatch = { ...patch, security: { ...patch.security, ipAllowlist: entries } };
    }
    const merged = deepMerge(current, cleanPatch);
    // A business day is one schedule: sending `{start, end}` must not inherit an old `closed: true`.
    const days = patch.businessHours?.custom;
    if (days && isPlainObject(merged.businessHours) && isPlainObject(merged.businessHours.custom)) {
      for (const [day, schedule] of Object.entries(days)) {
        if (schedule) merged.businessHours.custom[day] = schedule;
      }
    }
    this.validateBusinessHours(merged.businessHours);
    return merged;
  }

  private validateBusinessHours(hours: unknown): void {
    if (!isPlainObject(hours)) return;
    const custom = isPlainObject(hours.custom) ? hours.custom : null;
    if (hours.preset === 'custom' && (!custom || Object.keys(custom).length === 0))
      throw badRequest(
        'settings.businessHours.custom: a per-day schedule is required when preset is custom',
        'VALIDATION_ERROR',
      );
    for (const [day, schedule] of Object.entries(custom ?? {})) {
      if (!isPlainObject(schedule) || schedule.closed === true) continue;
      const { start, end } = schedule;
      // HH:MM strings compare in time order.
      if (typeof start === 'string' && typeof end === 'string' && end <= start)
        throw badRequest(`settings.businessHours.custom.${day}: end must be after start`, 'VALIDATION_ERROR');
    }
  }

  /**
   * Each entry must parse (literal IPv4/IPv6, CIDR, IPv4-mapped IPv6); a non-empty list needs trusted proxy
   * parsing, because behind an untrusted proxy every client would look like the proxy. A partner user's own
   * current address must be inside the new list, so an administrator cannot lock everyone out by mistake.
   */
  private validateAllowlist(raw: string[], caller: Request | null): string[] {
    const entries: string[] = [];
    for (const value of raw) {
      const entry = value.trim();
      if (!parseRange(entry))
        throw badRequest(`Invalid IP allowlist entry: ${value}`, 'INVALID_IP_ALLOWLIST_ENTRY', {
          entry: value,
        });
      if (!entries.includes(entry)) entries.push(entry);
    }
    if (entries.length === 0) return entries;
    const { trustProxyHeaders, trustedProxyCidrs } = this.ctx.config;
    if (!trustProxyHeaders || trustedProxyCidrs.length === 0)
      throw badRequest(
        'IP allowlist needs trusted proxy parsing (TRUST_PROXY_HEADERS and TRUSTED_PROXY_CIDRS)',
        'proxy_trust_required',
      );
    if (caller) {
      const address = caller.clientAddress;
      const ip = address?.trusted ? address.ip : null;
      if (!ip || !new IpRanges(entries).has(ip))
        throw badRequest(
          `IP allowlist must include your current address (${ip ?? 'unknown'}), or you would lock yourself out`,
          'IP_ALLOWLIST_EXCLUDES_CALLER',
          { ipAddress: ip },
        );
    }
    return entries;
  }

  ownPartner(auth: AuthContext): Partner {
    this.requirePartnerScope(auth);
    return toPartner(this.livePartner(auth.partnerId));
  }

  updateOwnPartner(req: Request, auth: AuthContext, body: UpdateOwnPartnerBody): Partner {
    this.requirePartnerScope(auth);
    requireFullPartnerAccess(this.ctx.db, auth);
    const sent = definedKeys(body);
    if (sent.length === 0) throw badRequest('No updates provided');
    const at = new Date().toISOString();
    const partnerId = auth.partnerId;
    this.ctx.db.transaction(() => {
      const row = this.livePartner(partnerId);
      const columns: PartnerColumns = {
        name: body.name,
        billing_email: body.billingEmail,
        ...this.serviceManagementColumns(row, body),
        updated_at: at,
      };
      if (body.settings) columns.settings = JSON.stringify(this.mergedSettings(row, body.settings, req));
      this.store.updatePartner(partnerId, columns);
    })();
    const partner = toPartner(this.livePartner(partnerId));
    const changedFields = sent.flatMap((key) =>
      key === 'settings' && body.settings ? sentPaths(body.settings, 'settings.', 2) : [key],
    );
    // Field names only: the values (contact details, address lists) stay in the partner record.
    this.audit(req, auth, {
      orgId: null,
      partnerId,
      action: 'partner.settings.update',
      resourceType: 'partner',
      resourceId: partnerId,
      resourceName: partner.name,
      details: { changedFields },
    });
    return partner;
  }

  // ---- organizations --------------------------------------------------------------------------------------------

  organizationsInScope(auth: AuthContext): { data: Organization[] } {
    return { data: this.store.organizationsInScope(resolveOrgScope(this.ctx.db, auth)).map(toOrganization) };
  }

  listOrganizations(auth: AuthContext, partnerId: string | undefined, page: PageRequest) {
    this.requirePartnerOrSystem(auth);
    if (auth.scope === 'partner' && partnerId && partnerId !== auth.partnerId)
      throw forbidden('Access denied to this partner');
    const { rows, total } = this.store.pageOrganizations(resolveOrgScope(this.ctx.db, auth), partnerId, page);
    return paginated(rows.map(toOrganization), page, total);
  }

  private accessibleOrganization(auth: AuthContext, id: string) {
    this.requirePartnerOrSystem(auth);
    requireOrgAccess(this.ctx.db, auth, id);
    const row = this.store.organization(id);
    if (!row) throw notFound('Organization not found');
    return row;
  }

  getOrganization(auth: AuthContext, id: string): Organization {
    return toOrganization(this.accessibleOrganization(auth, id));
  }

  createOrganization(req: Request, auth: AuthContext, body: CreateOrganizationBody): Organization {
    this.requirePartnerOrSystem(auth);
    let partnerId: string;
    if (auth.scope === 'system') {
      if (!body.partnerId) throw badRequest('partnerId is required for system scope');
      partnerId = body.partnerId;
    } else {
      if (!auth.partnerId) throw badRequest('Partner context required to create organizations');
      if (body.partnerId && body.partnerId !== auth.partnerId)
        throw forbidden('Access denied to this partner');
      partnerId = auth.partnerId;
    }
    checkContract(body.contractStart ?? null, body.contractEnd ?? null);
    const at = new Date().toISOString();
    const id = randomUUID();
    let granted = false;
    this.ctx.db.transaction(() => {
      const partner = this.livePartner(partnerId);
      // Counted inside the transaction, so two concurrent creates cannot both slip under the cap.
      if (
        partner.max_organizations !== null &&
        this.store.countOrganizations(partnerId) >= partner.max_organizations
      )
        throw forbidden('Organization limit reached for this partner', 'ORGANIZATION_LIMIT_REACHED', {
          limit: partner.max_organizations,
        });
      if (this.store.organizationSlugTaken(partnerId, body.slug))
        throw conflict('An organization with this slug already exists for this partner', SLUG_TAKEN);
      this.store.insertOrganization({
        id,
        partner_id: partnerId,
        name: body.name,
        slug: body.slug,
        type: body.type ?? 'customer',
        status: body.status ?? 'active',
        max_devices: body.maxDevices ?? null,
        settings: JSON.stringify(body.settings ?? {}),
        sso_config: '{}',
        contract_start: body.contractStart ?? null,
        contract_end: body.contractEnd ?? null,
        billing_contact: JSON.stringify(body.billingContact ?? {}),
        created_at: at,
        updated_at: at,
      });
      // A technician limited to `selected` organizations sees what they create: otherwise the new organization
      // would vanish from their own lists the moment it exists. `none` stays none (that is an explicit choice).
      if (auth.kind === 'user' && auth.scope === 'partner')
        granted = this.store.grantSelectedOrganization(partnerId, auth.userId, id);
    })();
    const org = toOrganization(this.store.organization(id)!);
    this.audit(req, auth, {
      orgId: id,
      action: 'organization.create',
      resourceType: 'organization',
      resourceId: id,
      resourceName: org.name,
      details: {
        partnerId,
        status: org.status,
        type: org.type,
        ...(granted ? { grantedToCreator: true } : {}),
      },
    });
    return org;
  }

  updateOrganization(
    req: Request,
    auth: AuthContext,
    id: string,
    body: UpdateOrganizationBody,
  ): Organization {
    const row = this.accessibleOrganization(auth, id);
    if (body.partnerId !== undefined && body.partnerId !== row.partner_id)
      throw badRequest('partnerId cannot be changed', 'IMMUTABLE_FIELD');
    const { partnerId: _ignored, ...fields } = body;
    const changedFields = definedKeys(fields);
    if (changedFields.length === 0) throw badRequest('No updates provided');
    checkContract(
      fields.contractStart !== undefined ? fields.contractStart : row.contract_start,
      fields.contractEnd !== undefined ? fields.contractEnd : row.contract_end,
    );
    const at = new Date().toISOString();
    this.ctx.db.transaction(() => {
      if (fields.slug !== undefined && this.store.organizationSlugTaken(row.partner_id, fields.slug, id))
        throw conflict('An organization with this slug already exists for this partner', SLUG_TAKEN);
      const columns: OrganizationColumns = {
        name: fields.name,
        slug: fields.slug,
        type: fields.type,
        status: fields.status,
        max_devices: fields.maxDevices,
        contract_start: fields.contractStart,
        contract_end: fields.contractEnd,
        settings: fields.settings
          ? JSON.stringify(deepMerge(parseObject(row.settings), fields.settings))
          : undefined,
        sso_config: fields.ssoConfig ? JSON.stringify(fields.ssoConfig) : undefined,
        billing_contact: fields.billingContact ? JSON.stringify(fields.billingContact) : undefined,
        updated_at: at,
      };
      this.store.updateOrganization(id, columns);
    })();
    const org = toOrganization(this.store.organization(id)!);
    this.audit(req, auth, {
      orgId: id,
      action: 'organization.update',
      resourceType: 'organization',
      resourceId: id,
      resourceName: org.name,
      details: { changedFields },
    });
    return org;
  }

  deleteOrganization(req: Request, auth: AuthContext, id: string): { success: true } {
    const row = this.accessibleOrganization(auth, id);
    const at = new Date().toISOString();
    const revoked = this.ctx.db.transaction(() => {
      this.store.updateOrganization(id, { deleted_at: at, updated_at: at });
      // The organization's own users and keys lose their only tenant: end their sessions and keys now rather
      // than letting a 15-minute access token or an API key keep working against a deleted organization.
      const users = this.store.organizationUserIds(id);
      for (const userId of users) {
        this.ctx.tokens.revokeAllForUser(userId, 'organization_deleted');
        this.ctx.users.bumpTokenVersion(userId);
      }
      return {
        users: users.length,
        apiKeys: this.store.revokeOrganizationApiKeys(id, 'organization_deleted', at),
      };
    })();
    // Its agents' credentials stop working with the organization; their open sockets close now, not at the
    // hub's next check.
    this.ctx.agentHub.disconnectOrg(id, 'organization deleted');
    this.audit(req, auth, {
      orgId: id,
      action: 'organization.delete',
      resourceType: 'organization',
      resourceId: id,
      resourceName: row.name,
      details: { partnerId: row.partner_id, revoked },
    });
    return { success: true };
  }

  // ---- sites ----------------------------------------------------------------------------------------------------

  listSites(auth: AuthContext, orgId: string | undefined, page: PageRequest) {
    if (orgId) requireOrgAccess(this.ctx.db, auth, orgId);
    const { db } = this.ctx;
    const { rows, total } = this.store.pageSites(
      resolveOrgScope(db, auth),
      siteRestriction(db, auth),
      orgId,
      page,
    );
    return paginated(rows.map(toSite), page, total);
  }

  private accessibleSite(auth: AuthContext, id: string) {
    requireSiteAccess(this.ctx.db, auth, id);
    const row = this.store.site(id);
    if (!row) throw notFound('Site not found');
    return row;
  }

  getSite(auth: AuthContext, id: string): Site {
    return toSite(this.accessibleSite(auth, id));
  }

  createSite(req: Request, auth: AuthContext, body: CreateSiteBody): Site {
    requireOrgAccess(this.ctx.db, auth, body.orgId);
    const at = new Date().toISOString();
    const id = randomUUID();
    this.store.insertSite({
      id,
      org_id: body.orgId,
      name: body.name,
      timezone: body.timezone ?? 'UTC',
      address: JSON.stringify(body.address ?? {}),
      contact: JSON.stringify(body.contact ?? {}),
      settings: JSON.stringify(body.settings ?? {}),
      created_at: at,
      updated_at: at,
    });
    const site = toSite(this.store.site(id)!);
    this.audit(req, auth, {
      orgId: site.orgId,
      action: 'site.create',
      resourceType: 'site',
      resourceId: id,
      resourceName: site.name,
      details: { timezone: site.timezone },
    });
    return site;
  }

  updateSite(req: Request, auth: AuthContext, id: string, body: UpdateSiteBody): Site {
    const row = this.accessibleSite(auth, id);
    if (body.orgId !== undefined && body.orgId !== row.org_id)
      throw badRequest('orgId cannot be changed', 'IMMUTABLE_FIELD');
    const { orgId: _ignored, ...fields } = body;
    const changedFields = definedKeys(fields);
    if (changedFields.length === 0) throw badRequest('No updates provided');
    // address, contact and settings are free-form documents the console edits as a whole: they are replaced.
    const columns: SiteColumns = {
      name: fields.name,
      timezone: fields.timezone,
      address: fields.address ? JSON.stringify(fields.address) : undefined,
      contact: fields.contact ? JSON.stringify(fields.contact) : undefined,
      settings: fields.settings ? JSON.stringify(fields.settings) : undefined,
      updated_at: new Date().toISOString(),
    };
    this.store.updateSite(id, columns);
    const site = toSite(this.store.site(id)!);
    this.audit(req, auth, {
      orgId: site.orgId,
      action: 'site.update',
      resourceType: 'site',
      resourceId: id,
      resourceName: site.name,
      details: { changedFields },
    });
    return site;
  }

  deleteSite(req: Request, auth: AuthContext, id: string): { success: true } {
    const row = this.accessibleSite(auth, id);
    this.store.deleteSite(id);
    this.audit(req, auth, {
      orgId: row.org_id,
      action: 'site.delete',
      resourceType: 'site',
      resourceId: id,
      resourceName: row.name,
    });
    return { success: true };
  }
}

function checkContract(start: string | null, end: string | null): void {
  if (start && end && Date.parse(end) < Date.parse(start))
    throw new HttpError(400, 'contractEnd must not be before contractStart', 'VALIDATION_ERROR');
}
