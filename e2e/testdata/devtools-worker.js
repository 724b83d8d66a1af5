// A dedicated worker of devtools.html: its console is the page's too.
console.log('worker says hi');
// The page's window.ran waits for this: the fetch answered.
fetch('/data.txt?from=worker').finally(() => postMessage('worker ran'));
