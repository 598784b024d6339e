import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { installScript } from './install-script';
import { syncFromReleaseFeed } from './release-feed';
import { setRollout } from './rollout';
import {
  agentDownloadParams,
  createAgentVersionBody,
  downloadParams,
  downloadQuery,
  rolloutBody,
  rolloutParams,
  versionFilterQuery,
} from './schemas';
import {
  createAgentVersion,
  downloadLatest,
  downloadVersion,
  latestAgentVersion,
  listAgentVersions,
} from './service';

// /agent-versions and the public agent downloads (spec 3). Reading the registry needs devices:read (users or
// API keys); registering needs a platform administrator with an MFA session; downloads and the install script
// need no credential at all, since a machine being installed has none.

const TAG = 'agent-versions';
const ADMIN_ONLY = { 403: 'System scope and an MFA-verified session required' };

export function agentVersionRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/agent-versions',
      tag: TAG,
      summary: 'Every registered agent build, newest version first',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      query: versionFilterQuery,
      handler: ({ query }) => listAgentVersions(ctx, query),
    }),
    defineRoute({
      method: 'get',
      path: '/agent-versions/latest',
      tag: TAG,
      summary: 'The latest build of a platform and architecture (without them, the newest of all)',
      auth: 'user_or_key',
      permission: PERMISSIONS.DEVICES_READ,
      query: versionFilterQuery,
      responses: { 404: 'No agent version is registered' },
      handler: ({ query }) => latestAgentVersion(ctx, query),
    }),
    defineRoute({
      method: 'get',
      path: '/agent-versions/:version/download',
      tag: TAG,
      summary:
        'Download one build (X-Checksum-Sha256 carries its registered checksum); 302 when held elsewhere',
      auth: 'public',
      params: downloadParams,
      query: downloadQuery,
      responses: { 302: 'The build is held at its registered download URL', 404: 'Agent version not found' },
      handler: ({ req, res, params, query }) =>
        downloadVersion(ctx, req, res, params.version, query.platform, query.arch),
    }),
    defineRoute({
      method: 'post',
      path: '/agent-versions',
      tag: TAG,
      summary: 'Register a build by URL and checksum; the highest version of its platform becomes latest',
      auth: 'user',
      mfa: true,
      body: createAgentVersionBody,
      status: 201,
      responses: {
        ...ADMIN_ONLY,
        409: 'That version is already registered for the platform and architecture',
      },
      handler: ({ req, auth, body }) => createAgentVersion(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'put',
      path: '/agent-versions/:version/rollout',
      tag: TAG,
      summary:
        'Stage a version: the share of eligible devices (0-100, chosen stably per device) its heartbeats offer ' +
        'it to; 0 pauses it, 100 offers it to all (the default)',
      auth: 'user',
      mfa: true,
      params: rolloutParams,
      body: rolloutBody,
      responses: { ...ADMIN_ONLY, 404: 'Agent version not found' },
      handler: ({ req, auth, params, body }) => setRollout(ctx, req, auth, params.version, body.percent),
    }),
    defineRoute({
      method: 'post',
      path: '/agent-versions/sync-github',
      tag: TAG,
      summary: 'Register the latest published release from its signed artifact manifest',
      auth: 'user',
      mfa: true,
      responses: {
        ...ADMIN_ONLY,
        409: 'A build of the release is already registered with another checksum',
        502: 'The release feed answered with an error, or the release is unsigned, untrusted or malformed',
        503: 'The release feed could not be reached, or no trust anchor is configured',
      },
      handler: ({ req, auth }) => syncFromReleaseFeed(ctx, req, auth),
    }),
    defineRoute({
      method: 'get',
      path: '/agents/download/:os/:arch',
      tag: TAG,
      summary: 'Download the latest agent for an operating system and architecture (X-Checksum-Sha256)',
      auth: 'public',
      params: agentDownloadParams,
      responses: { 404: 'No agent build is available for that platform' },
      handler: ({ req, res, params }) => downloadLatest(ctx, req, res, params.os, params.arch),
    }),
    defineRoute({
      method: 'get',
      path: '/agents/install.sh',
      tag: TAG,
      summary: 'Install script for Linux and macOS: downloads, verifies, installs and enrolls the agent',
      auth: 'public',
      handler: ({ res }) => {
        res
          .status(200)
          .type('text/x-shellscript; charset=utf-8')
          .set('Content-Disposition', 'inline; filename="install.sh"')
          .send(installScript(ctx.publicOrigin));
      },
    }),
  ];
}
