// The sanctions widget's verdict, pure (Document 2 §4, decision 0018).

export { type SanctionsSignal, type SanctionsVerdict, type SanctionsWidgetScreen, type ScreenedAs, screenForWidget, WIDGET_MATCH_LIMIT } from './sanctions-verdict.js';
