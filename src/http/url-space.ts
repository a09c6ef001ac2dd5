import { Controller, Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';

/** The URL spaces under the namespace prefix; `root` holds health and the local file routes. */
export type UrlSpace = 'core' | 'files' | 'orders' | 'root';

const SPACE_KEY = 'svc:url-space';
const controllers = new Set<Type<unknown>>();

// R1: namespace.
export function spacePrefix(space: UrlSpace, namespace: string): string {
  switch (space) {
    case 'core':
      return `public/api/v1/${namespace}`;
    case 'files':
      return `api/v1/${namespace}/file-manager`;
    case 'orders':
      return `plugins/${namespace}/${namespace}-init`;
    case 'root':
      return '';
  }
}

/**
 * A controller in one URL space. The prefix comes from API_NAMESPACE at boot,
 * so no path literal names the vendor segment.
 */
export function SpaceController(space: UrlSpace, path = ''): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(SPACE_KEY, { space, path }, target);
    controllers.add(target as unknown as Type<unknown>);
    Controller(path)(target);
  };
}

// R2: one process, one port.
/** Rewrites every space controller's path for this namespace; call before the app is created. */
export function applyUrlSpaces(namespace: string): void {
  for (const controller of controllers) {
    const { space, path } = Reflect.getMetadata(SPACE_KEY, controller) as {
      space: UrlSpace;
      path: string;
    };
    const full = [spacePrefix(space, namespace), path].filter(Boolean).join('/');
    Reflect.defineMetadata(PATH_METADATA, full || '/', controller);
  }
}
