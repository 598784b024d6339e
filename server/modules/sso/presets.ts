import type { SsoAttributeMapping, SsoPreset } from '../../contract';

// Spec 1: presets for four OIDC products (three with `openid profile email`, one adding `groups`) and five SAML
// products, each with its attribute mapping. SAML presets are listed so an administrator sees what exists, but
// only OIDC sign-in is offered (`loginSupported: false`).

export const DEFAULT_SCOPES = 'openid profile email';
export const DEFAULT_MAPPING: SsoAttributeMapping = { email: 'email', name: 'name' };

const OIDC_MAPPING: SsoAttributeMapping = {
  email: 'email',
  name: 'name',
  firstName: 'given_name',
  lastName: 'family_name',
};

const SAML_CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

export const SSO_PRESETS: readonly SsoPreset[] = [
  {
    id: 'entra-id',
    name: 'Microsoft Entra ID',
    type: 'oidc',
    scopes: DEFAULT_SCOPES,
    attributeMapping: { ...OIDC_MAPPING, email: 'preferred_username' },
    issuerTemplate: 'https://login.microsoftonline.com/<tenant-id>/v2.0',
    loginSupported: true,
  },
  {
    id: 'google',
    name: 'Google Workspace',
    type: 'oidc',
    scopes: DEFAULT_SCOPES,
    attributeMapping: OIDC_MAPPING,
    issuerTemplate: 'https://accounts.google.com',
    loginSupported: true,
  },
  {
    id: 'okta',
    name: 'Okta',
    type: 'oidc',
    scopes: `${DEFAULT_SCOPES} groups`,
    attributeMapping: { ...OIDC_MAPPING, groups: 'groups' },
    issuerTemplate: 'https://<your-domain>.okta.com',
    loginSupported: true,
  },
  {
    id: 'auth0',
    name: 'Auth0',
    type: 'oidc',
    scopes: DEFAULT_SCOPES,
    attributeMapping: OIDC_MAPPING,
    issuerTemplate: 'https://<your-tenant>.auth0.com/',
    loginSupported: true,
  },
  {
    id: 'entra-id-saml',
    name: 'Microsoft Entra ID (SAML)',
    type: 'saml',
    scopes: null,
    attributeMapping: {
      email: `${SAML_CLAIMS}/emailaddress`,
      name: 'http://schemas.microsoft.com/identity/claims/displayname',
      firstName: `${SAML_CLAIMS}/givenname`,
      lastName: `${SAML_CLAIMS}/surname`,
      groups: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
    },
    issuerTemplate: null,
    loginSupported: false,
  },
  {
    id: 'okta-saml',
    name: 'Okta (SAML)',
    type: 'saml',
    scopes: null,
    attributeMapping: {
      email: 'email',
      name: 'displayName',
      firstName: 'firstName',
      lastName: 'lastName',
      groups: 'groups',
    },
    issuerTemplate: null,
    loginSupported: false,
  },
  {
    id: 'google-saml',
    name: 'Google Workspace (SAML)',
    type: 'saml',
    scopes: null,
    attributeMapping: { email: 'email', name: 'name', firstName: 'first_name', lastName: 'last_name' },
    issuerTemplate: null,
    loginSupported: false,
  },
  {
    id: 'onelogin-saml',
    name: 'OneLogin (SAML)',
    type: 'saml',
    scopes: null,
    attributeMapping: {
      email: 'User.email',
      name: 'User.DisplayName',
      firstName: 'User.FirstName',
      lastName: 'User.LastName',
      groups: 'memberOf',
    },
    issuerTemplate: null,
    loginSupported: false,
  },
  {
    id: 'adfs-saml',
    name: 'Active Directory Federation Services (SAML)',
    type: 'saml',
    scopes: null,
    attributeMapping: {
      email: `${SAML_CLAIMS}/emailaddress`,
      name: `${SAML_CLAIMS}/name`,
      firstName: `${SAML_CLAIMS}/givenname`,
      lastName: `${SAML_CLAIMS}/surname`,
      groups: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/role',
    },
    issuerTemplate: null,
    loginSupported: false,
  },
];

export const presetById = (id: string): SsoPreset | undefined => SSO_PRESETS.find((p) => p.id === id);
