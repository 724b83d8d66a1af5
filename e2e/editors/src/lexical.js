// Lexical with its rich-text plugin and history, set up as its vanilla-JS
// guide does; the editor is window.editor for the test's observer, and
// window.text() reads its state's text.
import { createEditor, $getRoot } from 'lexical';
import { registerRichText, HeadingNode, QuoteNode } from '@lexical/rich-text';
import { registerHistory, createEmptyHistoryState } from '@lexical/history';

const editor = createEditor({
  namespace: 'notes',
  nodes: [HeadingNode, QuoteNode],
  onError: (e) => { throw e; },
});
editor.setRootElement(document.querySelector('#editor'));
registerRichText(editor);
registerHistory(editor, createEmptyHistoryState(), 300);
window.editor = editor;
window.text = () => editor.getEditorState().read(() => $getRoot().getTextContent());
window.paragraphs = () => editor.getEditorState().read(() => $getRoot().getChildren().map((n) => n.getTextContent()));
document.title = 'Lexical ready';
