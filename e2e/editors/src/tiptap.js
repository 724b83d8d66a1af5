// Tiptap (ProseMirror) with its starter kit and placeholder, as its docs set
// it up; the editor is window.editor for the test's observer.
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { Placeholder } from '@tiptap/extensions';

window.editor = new Editor({
  element: document.querySelector('#editor'),
  extensions: [StarterKit, Placeholder.configure({ placeholder: 'Write a comment…' })],
  content: '',
});
document.title = 'Tiptap ready';
