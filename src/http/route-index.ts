// Remembers every registered route so an unknown method on a known path can answer 405
// (Fastify on its own answers 404 there).
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export class RouteIndex {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true });

  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (!METHODS.includes(method as HTTPMethod)) continue;
        try {
          this.router.on(method as HTTPMethod, route.url, () => undefined);
        } catch {
          // Already indexed (Fastify registers HEAD alongside GET).
        }
      }
    });
  }

  hasOtherMethod(method: string, path: string): boolean {
    // A route for this very method that found nothing (a static file not there) is a 404.
    if (METHODS.includes(method as HTTPMethod) && this.router.find(method as HTTPMethod, path) !== null) return false;
    return METHODS.some((other) => other !== method && this.router.find(other, path) !== null);
  }
}
