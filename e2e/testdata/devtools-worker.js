// A dedicated worker of devtools.html: its console is the page's too.
console.log('worker says hi');
fetch('/data.txt?from=worker');
