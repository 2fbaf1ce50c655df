import { z } from 'zod';
import { paymentResultSchema } from '../shared/responses.js';
import type { Pacs002Document } from './domain/index.js';
import type { BatchEntry } from './initiation.js';
import type { PaymentsService } from './service.js';

/**
 * Response shapes of the integration API (spec §2, §4): Fastify's compiled serialisers and the
 * OpenAPI document; checked against the service types below. The PaymentResult's schema is shared
 * with the settlement agent (shared/responses.ts).
 */
const epoch = z.number().int().describe('epoch seconds');

export const fxRateSchema = z.object({ currency: z.string(), rate: z.string().describe('USD per unit of currency'), updatedAt: epoch });

/** The integration API's error body (the spec does not show one; decision 0025): {error, code}. */
export const integrationErrorSchema = z.object({ error: z.string(), code: z.string().describe('catalog code (docs/errors.md)') });

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type Assignable<T extends U, U> = T;
export type ResponseSchemasMatchTheService = [Assert<MutuallyAssignable<z.infer<typeof fxRateSchema>, Awaited<ReturnType<PaymentsService['rate']>>>>];

/**
 * Response shapes of the pain.001 answer (the pacs.002 report, decision 0022) and of the batch path
 * (decision 0028): Fastify's serialisers, the OpenAPI document and the MCP manifest; checked
 * against the domain types below.
 */
/** The PaymentResult in SplmtryData (the domain's ReportedResult: the service always passes a whole PaymentResult). */
const reportedResultSchema = paymentResultSchema.partial({ submittedAt: true, settledAt: true, settlement: true, vop: true });

const transactionStatus = z.enum(['ACSC', 'ACSP', 'PDNG', 'RJCT']);

export const pacs002DocumentSchema = z.object({
  Document: z.object({
    FIToFIPmtStsRpt: z.object({
      GrpHdr: z.object({ MsgId: z.string(), CreDtTm: z.string() }),
      OrgnlGrpInfAndSts: z.array(
        z.object({
          OrgnlMsgId: z.string(),
          OrgnlMsgNmId: z.string(),
          OrgnlCreDtTm: z.string(),
          OrgnlNbOfTxs: z.string(),
          OrgnlCtrlSum: z.string().optional(),
          GrpSts: z.enum(['ACSC', 'ACSP', 'PDNG', 'RJCT', 'PART']),
          NbOfTxsPerSts: z.array(z.object({ DtldNbOfTxs: z.string(), DtldSts: transactionStatus, DtldCtrlSum: z.string() })),
        }),
      ),
      TxInfAndSts: z.array(
        z.object({
          StsId: z.string(),
          OrgnlInstrId: z.string().optional(),
          OrgnlEndToEndId: z.string(),
          TxSts: transactionStatus,
          StsRsnInf: z.array(z.object({ Rsn: z.object({ Cd: z.enum(['BE01', 'RR04', 'ED05', 'AM04', 'NARR']) }), AddtlInf: z.array(z.string()).optional() })).optional(),
          AccptncDtTm: z.string().optional(),
          OrgnlTxRef: z.object({
            Amt: z.object({ InstdAmt: z.object({ Ccy: z.string(), value: z.string() }) }),
            ReqdExctnDt: z.object({ Dt: z.string() }).optional(),
          }),
          SplmtryData: z.array(z.object({ PlcAndNm: z.string(), Envlp: z.object({ PaymentResult: reportedResultSchema }) })),
        }),
      ),
    }),
  }),
});

/** POST /payments/initiate answers one of these: the PaymentResult (native) or the pacs.002 report (pain.001). */
export const initiationResponseSchema = z.union([paymentResultSchema, pacs002DocumentSchema]);

/** A batch entry: the payment's result, or the refusal of that payment alone. */
export const batchEntrySchema = z.union([paymentResultSchema, integrationErrorSchema.extend({ tmsReference: z.string() })]);
export const batchResponseSchema = z.array(batchEntrySchema);

export type IsoResponseSchemasMatch = [Assignable<Pacs002Document, z.input<typeof pacs002DocumentSchema>>, Assignable<BatchEntry, z.input<typeof batchEntrySchema>>];
