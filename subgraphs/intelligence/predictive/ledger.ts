import { z } from 'zod';
import { readInputs } from '../domain/index.js';
import type { IntelligenceDataset, SignalEndpoint } from '../shared/signal-endpoint.js';
import type { CallStatus, LedgerCall, LedgerModel } from './domain/index.js';
import { type Calibration, calibrationOf, scoredCall } from './domain/index.js';
import type { LedgerStore } from './ledger-store.js';
import { type Ledger, sweepLedger } from './ledger-sweep.js';
import { LEDGER_MODELS, ledgerParameters } from './models.js';
import { calibrationSchema, calibrationShape, ledgerCallSchema } from './schemas.js';

export interface LedgerParams {
  model?: string | undefined;
  status?: CallStatus | undefined;
  limit: number;
}

export interface ModelCalibration extends Calibration {
  model: string;
  title: string;
  subject: string;
  period: string;
  horizon: string;
}

export interface LedgerBody {
  overall: Calibration;
  models: ModelCalibration[];
  calls: LedgerCall[];
  sweep: { recorded: number; resolved: number };
}

const modelIds = LEDGER_MODELS.map((model) => model.id) as [string, ...string[]];

export const ledgerParamsSchema = z.object({
  model: z.enum(modelIds).optional().describe('only this model'),
  status: z.enum(['PENDING', 'RESOLVED', 'VOID']).optional().describe('only calls in this state'),
  limit: z.coerce.number().int().min(1).max(ledgerParameters.limit.maximum).default(ledgerParameters.limit.default).describe('calls listed, newest issued first'),
});

export const ledgerSchema = z.object({
  overall: calibrationSchema,
  models: z.array(z.object({ model: z.string(), title: z.string(), subject: z.string(), period: z.string(), horizon: z.string(), ...calibrationShape })),
  calls: z.array(ledgerCallSchema),
  sweep: z.object({ recorded: z.number().int().describe('calls this request recorded'), resolved: z.number().int().describe('calls this request resolved') }),
});

/** The ledger a store and the registry make. */
export function ledgerOf(store: LedgerStore, models: readonly LedgerModel[] = LEDGER_MODELS): Ledger {
  return { store, models, timing: ledgerParameters };
}

function modelCalibration(model: LedgerModel, calls: readonly LedgerCall[]): ModelCalibration {
  const own = calls.filter((call) => call.model === model.id).map(scoredCall);
  return { model: model.id, title: model.title, subject: model.subject, period: model.period, horizon: model.horizon, ...calibrationOf(own, ledgerParameters.reliabilityBuckets) };
}

/** The series that date the registered models' calls: the ledger's inputs. */
export function ledgerInputs(dataset: IntelligenceDataset, models: readonly LedgerModel[]) {
  return readInputs(dataset.series, [...new Set(models.flatMap((model) => model.series))]);
}

/** GET /v1/intelligence/ledger: sweeps, then answers every model's calibration and the calls asked for. */
export function ledgerEndpoint(ledger: Ledger): SignalEndpoint<LedgerParams, LedgerBody> {
  return {
    id: 'ledger',
    summary: "The service's recorded calls, how each resolved, and each model's calibration (Brier score)",
    params: ledgerParamsSchema,
    invalidParamsCode: 'INT_ERR_INVALID_PARAMETER',
    response: ledgerSchema,
    async compute({ dataset, now, params }) {
      const sweep = await sweepLedger(ledger, dataset, now);
      const all = await ledger.store.calls({});
      const listed = await ledger.store.calls({ model: params.model, status: params.status });
      const read = ledgerInputs(dataset, ledger.models);
      return {
        body: {
          overall: calibrationOf(all.map(scoredCall), ledgerParameters.reliabilityBuckets),
          models: ledger.models.map((model) => modelCalibration(model, all)),
          calls: listed.slice(0, params.limit),
          sweep,
        },
        inputs: read.used,
        missing: read.missing,
      };
    },
    headers: (body) => ({ 'x-rail-ledger-calls': String(body.overall.calls), 'x-rail-brier-score': body.overall.brierScore === null ? 'none' : String(body.overall.brierScore) }),
    graphql: { field: 'predictionLedger' },
  };
}
