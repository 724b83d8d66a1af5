// Lexical with its rich-text plugin, as its vanilla-JS docs set it up; the
// editor's text as its own state holds it is window.lexicalText() for the
// test's observer.
import { createEditor, $getRoot } from 'lexical';
import { registerRichText } from '@lexical/rich-text';

const editor = createEditor({ namespace: 'notes', onError: (e) => { throw e; } });
editor.setRootElement(document.querySelector('#editor'));
registerRichText(editor);
window.lexicalEditor = editor;
window.lexicalText = () => editor.getEditorState().read(() => $getRoot().getTextContent());
document.title = 'Lexical ready';
