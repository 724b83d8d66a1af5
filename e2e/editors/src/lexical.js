// Lexical with its rich-text plugin, as its vanilla-JS docs set it up; the
// paragraphs as the editor's own state holds them (JSON, a string each) are
// window.lexicalParagraphs() for the test's observer.
import { createEditor, $getRoot } from 'lexical';
import { registerRichText } from '@lexical/rich-text';

const editor = createEditor({ namespace: 'notes', onError: (e) => { throw e; } });
editor.setRootElement(document.querySelector('#editor'));
registerRichText(editor);
window.lexicalEditor = editor;
window.lexicalParagraphs = () => JSON.stringify(editor.getEditorState().read(() => $getRoot().getChildren().map((p) => p.getTextContent())));
document.title = 'Lexical ready';
