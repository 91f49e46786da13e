// Host globals that node/js/*.js reads and that the libraries of node/tsconfig.check.json (ES2022
// and the DOM: what browsers and Node >= 20 both have) do not declare. Type-checking only: this
// file is not shipped (package.json "files" takes js/*.js) and nothing imports it.

/**
 * Node's Buffer, read by js/remote.js only on a runtime without `atob` (neither Node >= 16 nor a
 * browser): the one use, declared as narrowly as it is used.
 */
declare const Buffer: {
  from(text: string, encoding: 'base64'): { toString(encoding: 'latin1'): string }
}
