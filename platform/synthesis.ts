import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';

/** What a synthesiser is asked: the computed facts, and the rule-based text built from them. */
export interface SynthesisRequest {
  topic: string;
  facts: Record<string, unknown>;
  /** Deterministic text from the domain's rule-based composer; the default synthesiser returns it. */
  ruleBasedText: string;
}

export interface SynthesisResult {
  text: string;
  model: string;
  generatedAt: string;
}

export interface Synthesiser {
  readonly model: string;
  /** Null when the synthesis failed; callers omit the field (or fall back, where the spec requires it). */
  synthesise(request: SynthesisRequest): Promise<SynthesisResult | null>;
}

export const RULE_BASED_MODEL = 'rule-based-synthesiser/1.0 (deterministic, no language model)';

export function createRuleBasedSynthesiser(clock: Clock): Synthesiser {
  return {
    model: RULE_BASED_MODEL,
    synthesise: async (request) => ({ text: request.ruleBasedText, model: RULE_BASED_MODEL, generatedAt: clock.now().toISOString() }),
  };
}

interface ChatCompletion {
  choices?: Array<{ message?: { content?: unknown } }>;
}

/**
 * Any OpenAI-compatible chat-completions endpoint. It only rewrites the computed facts into prose:
 * the prompt carries the facts and the rule-based text, and numbers stay authoritative.
 */
export function createLlmSynthesiser(
  options: { url: string; model: string; apiKey: string | undefined; timeoutMs: number },
  clock: Clock,
  logger: Logger,
  fetchImpl: typeof fetch = fetch,
): Synthesiser {
  return {
    model: options.model,
    async synthesise(request) {
      try {
        const response = await fetchImpl(options.url, {
          method: 'POST',
          signal: AbortSignal.timeout(options.timeoutMs),
          headers: {
            'content-type': 'application/json',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: options.model,
            temperature: 0,
            messages: [
              { role: 'system', content: 'Rewrite the analysis in plain language for a treasury analyst. Use only the facts given; do not add numbers.' },
              { role: 'user', content: JSON.stringify({ topic: request.topic, facts: request.facts, draft: request.ruleBasedText }) },
            ],
          }),
        });
        if (!response.ok) throw new Error(`status ${response.status}`);
        const body = (await response.json()) as ChatCompletion;
        const text = body.choices?.[0]?.message?.content;
        if (typeof text !== 'string' || text.trim() === '') throw new Error('empty completion');
        return { text: text.trim(), model: options.model, generatedAt: clock.now().toISOString() };
      } catch (error) {
        logger.warn({ err: error, topic: request.topic }, 'language-model synthesis failed');
        return null;
      }
    },
  };
}

export function createSynthesiser(config: Config, clock: Clock, logger: Logger): Synthesiser {
  const { llmUrl, llmModel, llmApiKey, timeoutMs } = config.synthesis;
  if (llmUrl && llmModel) return createLlmSynthesiser({ url: llmUrl, model: llmModel, apiKey: llmApiKey, timeoutMs }, clock, logger);
  return createRuleBasedSynthesiser(clock);
}
