/** The part of a CodeMirror 5 editor used here; CodeMirror sets it on the editor's wrapper element. */
interface EditorElement extends Element {
  CodeMirror?: { addKeyMap(map: Record<string, false>): void; getInputField(): HTMLElement };
}

/** Each editor's label for a screen reader, by where GraphiQL puts it (variables before headers in the tools section). */
function labelOf(element: Element): string {
  if (element.closest('.graphiql-query-editor')) return 'GraphQL query; Ctrl-Enter runs it';
  if (element.closest('.graphiql-response')) return 'Response, read only';
  const tools = element.closest('.graphiql-editor-tool');
  if (!tools) return 'Editor';
  return tools.querySelectorAll('.CodeMirror')[0] === element ? 'Variables, as JSON' : 'Headers, as JSON, e.g. {"X-API-Key": "srk_…"}';
}

/**
 * GraphiQL's editors (CodeMirror 5) take Tab to indent, so a keyboard user who tabs into the query
 * editor never gets out of it to the run button (WCAG 2.1.2, no keyboard trap), and their text
 * inputs have no name. A key map of Tab: false hands Tab back to the browser, which moves the
 * focus; the completion list, whose key map is added when it opens and so comes first, still takes
 * Tab. Enter indents, and Prettify (Shift-Ctrl-P) formats. Each editor is seen to once, as GraphiQL
 * creates it.
 */
export function makeEditorsKeyboardFriendly(root: HTMLElement): void {
  const done = new WeakSet<Element>();
  const visit = () => {
    for (const element of root.querySelectorAll<EditorElement>('.CodeMirror')) {
      if (done.has(element) || !element.CodeMirror) continue;
      element.CodeMirror.addKeyMap({ Tab: false, 'Shift-Tab': false });
      element.CodeMirror.getInputField().setAttribute('aria-label', labelOf(element));
      done.add(element);
    }
  };
  new MutationObserver(visit).observe(root, { childList: true, subtree: true });
  visit();
}
