// Every browser the build targets has ResizeObserver: the polyfill would only hand it back.
export default globalThis.ResizeObserver;
