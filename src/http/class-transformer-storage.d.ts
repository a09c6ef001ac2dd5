/** class-transformer keeps its @Type() metadata here; the package ships the types apart. */
declare module 'class-transformer/cjs/storage' {
  export * from 'class-transformer/types/storage';
}
