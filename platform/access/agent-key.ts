/**
 * An agent's key (decision 0048), shared by the compliance oracle, which issues it and keeps its
 * digest, and the settlement agent, which passes it on to be checked: the header that carries it
 * and its one format, `agk_` and 32 random bytes in base64url. A presented key of any other shape
 * is refused before anything looks it up.
 */
export const AGENT_KEY_HEADER = 'x-agent-key';
export const AGENT_KEY_PATTERN = /^agk_[A-Za-z0-9_-]{43}$/;

export const isAgentKeyFormat = (presented: string): boolean => AGENT_KEY_PATTERN.test(presented);
