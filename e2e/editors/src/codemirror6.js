// CodeMirror 6 with its basic setup and JavaScript mode, as its docs set it
// up; the view is window.view for the test's observer.
import { EditorView, basicSetup } from 'codemirror';
import { javascript } from '@codemirror/lang-javascript';

window.view = new EditorView({
  doc: 'const a = 1;\n',
  extensions: [basicSetup, javascript(), EditorView.contentAttributes.of({ 'aria-label': 'Script' })],
  parent: document.querySelector('#editor'),
});
document.title = 'CodeMirror 6 ready';
