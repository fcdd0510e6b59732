import {
  actCreateBodySchema,
  actPeriodsSchema,
  paymentSchema,
  paymentsPageSchema,
  balanceLogExportQuerySchema,
  balanceLogPageSchema,
  balanceSchema,
  billingDocumentSchema,
  billingListQuerySchema,
  documentsPageSchema,
  formatKopecksRu,
  idParamsSchema,
  LOCALES,
  topUpBodySchema,
  organisationDetailsResponseSchema,
  organisationDetailsSchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachment } from '../../lib/csv.js';
import { HttpError, notFound } from '@kontrol/server-kit';
import { currentUser } from '../../plugins/auth.js';
import { balanceLogCsv } from './billing.export.js';
import {
  actPeriods,
  createAct,
  createInvoice,
  documentPdf,
  listDocuments,
  organisationDetails,
  updateDetails,
} from './documents.service.js';
import { ledgerEntries, listLedger, readBalance } from './ledger.service.js';
import {
  createPaymentProvider,
  InvalidCallback,
  SANDBOX_SIGNATURE_HEADER,
  SandboxProvider,
} from './payment-providers.js';
import {
  createPayment,
  findPayment,
  listPayments,
  sandboxPayment,
  settleFromCallback,
} from './payments.service.js';
import { loadSeller } from './seller.js';
import { sandboxPage } from './sandbox-page.js';

const tags = ['billing'];

/**
 * Billing (docs/contract.md, "HTTP calls", docs/billing.md): the balance and its ledger, the organisation's requisites,
 * payments through a provider, invoices and acts. Holders of the `billing` module read; only the
 * organisation's admins change anything (`admin: true`). The provider's callback is public: its
 * signature guards it. Online payment exists only with a provider (`PAYMENT_PROVIDER`); the
 * sandbox's page and its answer exist only while the sandbox is the provider, guarded by an
 * unguessable id.
 */
export async function billingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const billing = app.config.billing;
  const provider = createPaymentProvider(billing.paymentProvider, app.config.appUrl);
  const topUp = {
    provider: billing.paymentProvider,
    test_money: provider?.testMoney ?? false,
    min_amount: billing.topUpMinKopecks,
    max_amount: billing.topUpMaxKopecks,
  };
  const settings = () => ({
    dailyRateKopecks: billing.dailyRateKopecks,
    vatPercent: billing.vatPercent,
    topUp,
  });
  const seller = loadSeller(billing.sellerFile);
  const documentSettings = { seller, vatPercent: billing.vatPercent };
  const topUpBody = topUpBodySchema(topUp);
  if (provider?.testMoney) {
    app.log.warn(
      { provider: provider.name },
      `PAYMENT_PROVIDER=${provider.name}: online payments are TEST MONEY — any organisation admin can credit a balance without paying; every such credit is marked test money. Never use it for real customers.`,
    );
  }

  app.get('/api/users/balance', {
    config: { access: 'billing' },
    schema: {
      tags,
      summary: "The organisation's balance (kopecks), tariff, daily charge and days it lasts",
      response: { 200: z.object({ data: balanceSchema }) },
    },
    handler: async (request) => ({
      data: await readBalance(app.db, currentUser(request).organisationId, settings()),
    }),
  });

  app.post('/api/users/balance_log', {
    config: { access: 'billing' },
    schema: {
      tags,
      summary: 'The ledger, newest first, paged, with filters (kind, created_at, amount)',
      body: billingListQuerySchema,
      response: { 200: balanceLogPageSchema },
    },
    handler: async (request) =>
      listLedger(app.db, request, currentUser(request).organisationId, request.body, request.locale),
  });

  app.get('/api/users/balance_log/csv', {
    config: { access: 'billing' },
    schema: {
      tags,
      summary: 'The ledger (with the same filters) as a CSV file, newest first',
      querystring: balanceLogExportQuerySchema,
    },
    handler: async (request, reply) => {
      const entries = await ledgerEntries(
        app.db,
        currentUser(request).organisationId,
        request.query.filters,
        request.locale,
      );
      const csv = balanceLogCsv(entries, request.locale);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(`balance-history.csv`))
        .header('cache-control', 'no-store')
        .send(csv);
    },
  });

  app.get('/api/users/organization', {
    config: { access: 'billing' },
    schema: {
      tags,
      summary: "The organisation's requisites for invoices and acts; null until filled",
      response: { 200: organisationDetailsResponseSchema },
    },
    handler: async (request) => ({
      data: await organisationDetails(app.db, currentUser(request).organisationId),
    }),
  });

  app.post('/api/users/update_organization', {
    config: { access: 'billing', admin: true },
    schema: {
      tags,
      summary:
        "Save the organisation's requisites (INN, OGRN, BIK and accounts checked by their control digits)",
      body: organisationDetailsSchema,
      response: { 200: organisationDetailsResponseSchema },
    },
    handler: async (request) => ({
      data: await updateDetails(app.db, currentUser(request).organisationId, request.body),
    }),
  });

  app.post('/api/payment/create', {
    config: { access: 'billing', admin: true },
    schema: {
      tags,
      summary:
        'Top up the balance online: a pending payment and the page to pay it on (`confirmation_url`); 409 without a payment provider',
      body: topUpBody,
      response: { 201: z.object({ data: paymentSchema }) },
    },
    handler: async (request, reply) => {
      if (!provider) throw new HttpError(409, 'billing.online_payment_off');
      const payment = await createPayment(
        app.db,
        provider,
        currentUser(request),
        request.body.amount,
        request.locale,
      );
      return reply.code(201).send({ data: payment });
    },
  });

  app.get('/api/payment/payments', {
    config: { access: 'billing' },
    schema: {
      tags,
      summary: "The organisation's online payments, newest first, paged (filters: status)",
      querystring: billingListQuerySchema,
      response: { 200: paymentsPageSchema },
    },
    handler: async (request) =>
      listPayments(app.db, request, currentUser(request).organisationId, request.query),
  });

  app.get('/api/payment/payments/:id', {
    config: { access: 'billing' },
    schema: {
      tags,
      summary: 'One payment and its status (pending, succeeded, failed)',
      params: idParamsSchema,
      response: { 200: z.object({ data: paymentSchema }) },
    },
    handler: async (request) => ({
      data: await findPayment(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.post('/api/payment/invoice/create', {
    config: { access: 'billing', admin: true },
    schema: {
      tags,
      summary: 'A numbered PDF invoice (счёт на оплату) for bank transfer; paid invoices credit the balance',
      body: topUpBody,
      response: { 201: z.object({ data: billingDocumentSchema }) },
    },
    handler: async (request, reply) => {
      const document = await createInvoice(
        app.db,
        currentUser(request),
        request.body.amount,
        documentSettings,
      );
      return reply.code(201).send({ data: document });
    },
  });

  app.get('/api/payment/act/periods', {
    config: { access: 'billing', admin: true },
    schema: {
      tags,
      summary: 'The months an act can be made for: ended (Moscow time) and with charges, newest first',
      response: { 200: actPeriodsSchema },
    },
    handler: async (request) => ({
      data: { periods: await actPeriods(app.db, currentUser(request).organisationId) },
    }),
  });

  app.post('/api/payment/act/create', {
    config: { access: 'billing', admin: true },
    schema: {
      tags,
      summary:
        "The PDF act of services for a month that has ended, from that month's charges (one per month)",
      body: actCreateBodySchema,
      response: {
        200: z.object({ data: billingDocumentSchema }),
        201: z.object({ data: billingDocumentSchema }),
      },
    },
    handler: async (request, reply) => {
      const { document, created } = await createAct(
        app.db,
        currentUser(request),
        request.body.period,
        documentSettings,
      );
      return reply.code(created ? 201 : 200).send({ data: document });
    },
  });

  app.get('/api/payment/documents', {
    config: { access: 'billing' },
    schema: {
      tags,
      summary: 'Invoices and acts, newest first, paged (filters: kind, status)',
      querystring: billingListQuerySchema,
      response: { 200: documentsPageSchema },
    },
    handler: async (request) =>
      listDocuments(app.db, request, currentUser(request).organisationId, request.query),
  });

  app.get('/api/payment/documents/:id/pdf', {
    config: { access: 'billing' },
    schema: { tags, summary: 'An invoice or act as the PDF it was issued as', params: idParamsSchema },
    handler: async (request, reply) => {
      const { name, pdf } = await documentPdf(app.db, currentUser(request).organisationId, request.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', attachment(name))
        .header('cache-control', 'private, max-age=0, must-revalidate')
        .send(pdf);
    },
  });

  app.post('/api/payment/callback/:provider', {
    config: { access: 'public', csrf: false },
    schema: {
      tags,
      summary: "A payment provider's signed notice of a payment's outcome (idempotent)",
      params: z.object({ provider: z.string().max(32) }),
    },
    handler: async (request, reply) => {
      const named = provider?.name === request.params.provider ? provider : null;
      if (!named) throw notFound();
      let callback;
      try {
        callback = named.verifyCallback(request.body, request.headers);
      } catch (error) {
        if (error instanceof InvalidCallback) {
          request.log.warn({ provider: named.name, reason: error.message }, 'payment callback refused');
          throw new HttpError(400, 'http.bad_request');
        }
        throw error;
      }
      const outcome = await settleFromCallback(app.db, named, callback);
      request.log.info({ provider: named.name, outcome }, 'payment callback');
      if (outcome === 'unknown_payment') throw notFound();
      if (outcome === 'amount_mismatch') throw new HttpError(422, 'validation.failed');
      return reply.send({ data: { outcome } });
    },
  });

  if (provider instanceof SandboxProvider) sandboxRoutes(app, provider);
}

/**
 * The sandbox provider's own payment page and its answer (a real provider's page lives on its
 * site). Registered only while the sandbox is the provider: otherwise these paths are 404.
 */
function sandboxRoutes(fastify: FastifyInstance, sandbox: SandboxProvider) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The sandbox's payment page posts an HTML form, which the API reads everywhere (lib/forms.ts).

  const sandboxParams = z.object({ externalId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

  app.get('/api/payment/sandbox/:externalId', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: "The sandbox provider's payment page, in `lang` (the console's language) or the browser's",
      params: sandboxParams,
      querystring: z.object({ lang: z.enum(LOCALES).optional() }),
    },
    handler: async (request, reply) => {
      const payment = await sandboxPayment(app.db, sandbox.name, request.params.externalId);
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', SANDBOX_PAGE_CSP)
        .header('cache-control', 'no-store')
        .send(
          sandboxPage({
            locale: request.query.lang ?? request.locale,
            amount: formatKopecksRu(Number(payment.amount)),
            paymentId: payment.id,
            status: payment.status,
            action: `/api/payment/sandbox/${request.params.externalId}`,
          }),
        );
    },
  });

  app.post('/api/payment/sandbox/:externalId', {
    config: { access: 'public', csrf: false },
    schema: {
      tags,
      summary:
        "The sandbox page's answer: pays or declines, sends the signed callback, returns to the console",
      params: sandboxParams,
      body: z.object({ outcome: z.enum(['succeeded', 'failed']) }),
    },
    handler: async (request, reply) => {
      const payment = await sandboxPayment(app.db, sandbox.name, request.params.externalId);
      if (payment.status === 'pending') {
        const callback = {
          payment_id: request.params.externalId,
          status: request.body.outcome,
          amount: Number(payment.amount),
        };
        // Through the real callback route, signed, as the provider's server would call it.
        const answer = await app.inject({
          method: 'POST',
          url: `/api/payment/callback/${sandbox.name}`,
          payload: callback,
          headers: { [SANDBOX_SIGNATURE_HEADER]: sandbox.sign(callback) },
        });
        if (answer.statusCode !== 200) {
          request.log.error({ status: answer.statusCode, body: answer.body }, 'sandbox callback failed');
          // The database cannot take it now (503): the page can be sent again later, so say that.
          if (answer.statusCode === 503)
            throw new HttpError(
              503,
              'http.unavailable',
              {},
              { 'retry-after': String(answer.headers['retry-after'] ?? 5) },
            );
          throw new HttpError(500, 'http.server_error');
        }
      }
      return reply.redirect(`/account/billing?payment=${payment.id}`, 303);
    },
  });
}

/** The sandbox page: its own inline style, a form posting to itself, nothing else. */
const SANDBOX_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
