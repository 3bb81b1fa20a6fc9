// Which proxy requests go through: the settings, read from an environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY).

/** The proxies to go through, as HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lower-case forms) name them. */
export interface ProxySettings {
  httpsProxy?: string;
  httpProxy?: string;
  noProxy?: string;
}

/** The proxy settings of an environment (the CLI passes its terminal's; a library caller gets the process's). */
export function proxyFromEnv(env: Readonly<Record<string, string | undefined>>): ProxySettings {
  const pick = (...values: (string | undefined)[]) => values.find((value) => value !== undefined && value !== '');
  return {
    httpsProxy: pick(env.HTTPS_PROXY, env.https_proxy),
    httpProxy: pick(env.HTTP_PROXY, env.http_proxy),
    noProxy: pick(env.NO_PROXY, env.no_proxy),
  };
}

/** Whether requests may go through a proxy (NO_PROXY may still exempt the service's host). */
export function proxyConfigured(proxy: ProxySettings): boolean {
  return Boolean(proxy.httpsProxy || proxy.httpProxy);
}
