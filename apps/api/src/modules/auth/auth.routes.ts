import {
  authUserSchema,
  loginBodySchema,
  messageBodySchema,
  registerBodySchema,
  resetPasswordBodySchema,
  sendResetLinkBodySchema,
  translate,
  updatePasswordBodySchema,
  updateProfileBodySchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import { endSession, sendXsrfCookie, startSession } from '../../plugins/session.js';
import { toAuthUser } from '../users/users.presenter.js';
import {
  authenticate,
  authUser,
  register,
  resetPassword,
  revokeAccessToken,
  sendResetLink,
  sendVerification,
  updatePassword,
  updateProfile,
  verifyEmail,
  type AuthDeps,
} from './auth.service.js';

const userEnvelope = z.object({ data: authUserSchema });
const tags = ['auth'];
/** Anonymous endpoints that send e-mail or create accounts: per-IP limits on top of everything. */
const anonymousLimit = { max: 10, timeWindow: 15 * 60_000 };

/** docs/contract.md, "Session and account", Laravel Sanctum/Fortify compatible (docs/api.md). */
export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = (): AuthDeps => ({
    db: app.db,
    mail: app.mail,
    rateLimiter: app.rateLimiter,
    appUrl: app.config.appUrl,
  });
  const authUserOf = (userId: number) => authUser(app.db, userId);

  app.get('/sanctum/csrf-cookie', {
    config: { access: 'public' },
    schema: { tags, summary: 'Issue the XSRF-TOKEN cookie (and a session) before login or registration' },
    handler: async (request, reply) => {
      if (request.session) sendXsrfCookie(request, reply, request.session);
      else await startSession(request, reply, null);
      return reply.code(204).send();
    },
  });

  app.post('/api/login', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Sign in; starts a new session',
      body: loginBodySchema,
      response: { 200: userEnvelope },
    },
    handler: async (request, reply) => {
      const { email, password, remember } = request.body;
      const userId = await authenticate(deps(), email, password, request.ip);
      await startSession(request, reply, userId, remember ?? false);
      return { data: await authUserOf(userId) };
    },
  });

  app.post('/api/logout', {
    config: { access: 'user' },
    schema: { tags, summary: 'Sign out: the session (or the bearer token) ends server-side' },
    handler: async (request, reply) => {
      if (request.authVia === 'token' && request.accessTokenId !== undefined) {
        await revokeAccessToken(app.db, request.accessTokenId);
      } else {
        await endSession(request, reply);
      }
      return reply.code(204).send();
    },
  });

  app.post('/api/register', {
    config: { access: 'public', rateLimit: anonymousLimit },
    schema: {
      tags,
      summary: 'Create an organisation and its first (admin) user; e-mails a verification link',
      body: registerBodySchema,
      response: { 201: userEnvelope },
    },
    handler: async (request, reply) => {
      const { userId } = await register(deps(), request.body, request.locale);
      await startSession(request, reply, userId);
      return reply.code(201).send({ data: await authUserOf(userId) });
    },
  });

  app.post('/api/send-reset-link', {
    config: { access: 'public', rateLimit: anonymousLimit },
    schema: {
      tags,
      summary: 'E-mail a password reset link; the answer is the same whether the address exists or not',
      body: sendResetLinkBodySchema,
      response: { 200: messageBodySchema },
    },
    handler: async (request) => {
      await sendResetLink(deps(), request.body.email);
      return { message: translate(request.locale, 'passwords.sent') };
    },
  });

  app.post('/api/reset-password', {
    config: { access: 'public', rateLimit: anonymousLimit },
    schema: {
      tags,
      summary: 'Set a new password with the e-mailed token; all sessions of the user end',
      body: resetPasswordBodySchema,
      response: { 200: messageBodySchema },
    },
    handler: async (request) => {
      await resetPassword(deps(), request.body);
      return { message: translate(request.locale, 'passwords.reset') };
    },
  });

  app.get('/api/users/auth', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: 'The signed-in user with their access modules',
      response: { 200: userEnvelope },
    },
    handler: async (request) => ({ data: toAuthUser(currentUser(request)) }),
  });

  app.put('/api/user/password', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: "Change the password; the user's other sessions end",
      body: updatePasswordBodySchema,
      response: { 200: messageBodySchema },
    },
    handler: async (request) => {
      await updatePassword(deps(), currentUser(request), request.body, request.session?.id);
      return { message: translate(request.locale, 'passwords.updated') };
    },
  });

  app.put('/api/user/profile-information', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: 'Change name, e-mail (to be confirmed again) and language',
      body: updateProfileBodySchema,
      response: { 200: userEnvelope },
    },
    handler: async (request) => {
      const user = currentUser(request);
      await updateProfile(deps(), user, request.body, app.config.invitations);
      return { data: await authUserOf(user.id) };
    },
  });

  app.post('/api/email/verification-notification', {
    config: { access: 'user', rateLimit: { max: 6, timeWindow: 60_000 } },
    schema: {
      tags,
      summary: 'Send the verification e-mail again',
      response: { 200: messageBodySchema, 202: messageBodySchema },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      if (user.emailVerifiedAt) return { message: translate(request.locale, 'verification.already') };
      await sendVerification(deps(), user.id);
      return reply.code(202).send({ message: translate(request.locale, 'verification.sent') });
    },
  });

  app.get('/api/email/verify/:token', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'The link in the verification e-mail; redirects into the console',
      params: z.object({ token: z.string().min(1).max(256) }),
    },
    handler: async (request, reply) => {
      const verified = await verifyEmail(deps(), request.params.token);
      return reply.redirect(verified ? '/account/dashboard?verified=1' : '/auth/login?verified=0', 302);
    },
  });
}
