// Vite's client types would pull in Node; the renderer only needs CSS imports to type-check.
declare module '*.css'
