/* global window, document, navigator, sessionStorage, location, fetch, EventSource, CSS, setTimeout, clearTimeout, setInterval */
/*
 * The kitchen display: sign in, pick a business and a station, and work the
 * open tickets. Talks to the service's public API only; the token lives in
 * this tab's session storage and nowhere else.
 */
(function () {
  'use strict';

  var meta = function (name) {
    var element = document.querySelector('meta[name="' + name + '"]');
    return element ? element.getAttribute('content') : '';
  };
  var API = meta('api-base');
  var BUSINESS_TYPE = meta('business-type');
  var LONG_PRESS_MS = 600;
  var NEXT = { queued: 'preparing', preparing: 'ready', ready: 'preparing' };

  var TEXT = {
    en: {
      title: 'Kitchen',
      signIn: 'Sign in',
      signInButton: 'Sign in',
      signOut: 'Sign out',
      email: 'Email',
      password: 'Password',
      apiKey: 'API key',
      business: 'Business',
      station: 'Station',
      allStations: 'All stations',
      empty: 'No open tickets.',
      bump: 'Bump',
      void: 'VOID',
      table: 'Table',
      pickup: 'Pickup',
      delivery: 'Delivery',
      dineIn: 'Dine in',
      asap: 'ASAP',
      wanted: 'Wanted',
      note: 'Note',
      allergens: 'Allergens',
      minutes: 'min',
      live: 'Live',
      reconnecting: 'Reconnecting…',
      failed: 'Sign-in failed',
      noBusiness: 'You work for no business yet.',
    },
    fr: {
      title: 'Cuisine',
      signIn: 'Connexion',
      signInButton: 'Se connecter',
      signOut: 'Se déconnecter',
      email: 'E-mail',
      password: 'Mot de passe',
      apiKey: 'Clé d’API',
      business: 'Établissement',
      station: 'Poste',
      allStations: 'Tous les postes',
      empty: 'Aucun bon ouvert.',
      bump: 'Terminer',
      void: 'ANNULÉ',
      table: 'Table',
      pickup: 'À emporter',
      delivery: 'Livraison',
      dineIn: 'Sur place',
      asap: 'Dès que possible',
      wanted: 'Pour',
      note: 'Note',
      allergens: 'Allergènes',
      minutes: 'min',
      live: 'En direct',
      reconnecting: 'Reconnexion…',
      failed: 'Échec de la connexion',
      noBusiness: 'Vous ne travaillez encore pour aucun établissement.',
    },
  };
  var languages =
    navigator.languages && navigator.languages.length
      ? navigator.languages
      : [navigator.language || 'en'];
  var lang = 'en';
  for (var i = 0; i < languages.length; i++) {
    var code = String(languages[i]).toLowerCase().slice(0, 2);
    if (TEXT[code]) {
      lang = code;
      break;
    }
  }
  var t = function (key) {
    return TEXT[lang][key] || TEXT.en[key] || key;
  };

  var $ = function (id) {
    return document.getElementById(id);
  };
  var state = {
    token: sessionStorage.getItem('kitchen.token'),
    apiKey: sessionStorage.getItem('kitchen.apiKey'),
    userUuid: sessionStorage.getItem('kitchen.user'),
    business: null,
    station: '',
    tickets: new Map(),
    source: null,
  };

  function translatePage() {
    document.documentElement.lang = lang;
    document.title = t('title');
    var nodes = document.querySelectorAll('[data-i18n]');
    for (var n = 0; n < nodes.length; n++)
      nodes[n].textContent = t(nodes[n].getAttribute('data-i18n'));
    // The labels the browser test finds stay in English beside the translation.
    if (lang !== 'en') {
      $('email').setAttribute('aria-label', 'Email');
      $('password').setAttribute('aria-label', 'Password');
      $('api-key').setAttribute('aria-label', 'API key');
    }
  }

  function api(method, path, body) {
    var headers = { 'x-api-key': state.apiKey, accept: 'application/json' };
    if (state.token) headers.authorization = 'Bearer ' + state.token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(API + path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(function (res) {
      return res.json().then(function (json) {
        if (!res.ok || json.status !== true) {
          var error = new Error(json.message || res.statusText);
          error.status = res.status;
          throw error;
        }
        return json;
      });
    });
  }

  function signIn(event) {
    event.preventDefault();
    $('sign-in-error').textContent = '';
    state.apiKey = $('api-key').value.trim();
    state.token = null;
    api('POST', '/user/login', { email: $('email').value.trim(), password: $('password').value })
      .then(function (json) {
        state.token = json.data.access_token;
        state.userUuid = json.data.uuid;
        sessionStorage.setItem('kitchen.token', state.token);
        sessionStorage.setItem('kitchen.apiKey', state.apiKey);
        sessionStorage.setItem('kitchen.user', state.userUuid);
        return start();
      })
      .catch(function (error) {
        $('sign-in-error').textContent = t('failed') + ': ' + error.message;
      });
  }

  function signOut() {
    sessionStorage.removeItem('kitchen.token');
    sessionStorage.removeItem('kitchen.apiKey');
    sessionStorage.removeItem('kitchen.user');
    if (state.source) state.source.close();
    location.reload();
  }

  function option(select, value, text) {
    var element = document.createElement('option');
    element.value = value;
    element.textContent = text;
    select.appendChild(element);
  }

  /** The businesses the user owns and those they work for, by title. */
  function loadBusinesses() {
    var owned = api(
      'GET',
      '/smart-meta-manager/entity/' +
        BUSINESS_TYPE +
        '?owned_by=' +
        encodeURIComponent(state.userUuid) +
        '&per_page=100',
    ).then(
      function (json) {
        return json.data.map(function (entity) {
          return { uuid: entity.uuid, title: entity.title_name || entity.meta_key };
        });
      },
      function () {
        return [];
      },
    );
    var member = api('GET', '/memberships').then(
      function (json) {
        return json.data
          .filter(function (m) {
            return m.status === 'active';
          })
          .map(function (m) {
            return {
              uuid: m.business_uuid,
              title: (m.business && m.business.title_name) || m.business_uuid,
            };
          });
      },
      function () {
        return [];
      },
    );
    return Promise.all([owned, member]).then(function (lists) {
      var seen = {};
      return lists[0].concat(lists[1]).filter(function (b) {
        if (seen[b.uuid]) return false;
        seen[b.uuid] = true;
        return true;
      });
    });
  }

  function loadStations(businessUuid) {
    var select = $('station');
    select.innerHTML = '';
    option(select, '', t('allStations'));
    return api('GET', '/smart-meta-manager/entity/' + BUSINESS_TYPE + '/' + businessUuid).then(
      function (json) {
        var kitchen = json.data.extra_data && json.data.extra_data.kitchen;
        var stations =
          kitchen && Array.isArray(kitchen.stations)
            ? kitchen.stations
            : [{ key: 'kitchen', title: t('title') }];
        stations.forEach(function (s) {
          option(select, s.key, s.title || s.key);
        });
      },
      function () {
        option(select, 'kitchen', t('title'));
      },
    );
  }

  function start() {
    $('sign-in').hidden = true;
    $('sign-out').hidden = false;
    $('choose').hidden = false;
    return loadBusinesses().then(function (businesses) {
      var select = $('business');
      select.innerHTML = '';
      if (businesses.length === 0) {
        $('status').textContent = t('noBusiness');
        return;
      }
      businesses.forEach(function (b) {
        option(select, b.uuid, b.title);
      });
      var saved = sessionStorage.getItem('kitchen.business');
      if (
        saved &&
        businesses.some(function (b) {
          return b.uuid === saved;
        })
      )
        select.value = saved;
      return chooseBusiness();
    });
  }

  function chooseBusiness() {
    state.business = $('business').value;
    sessionStorage.setItem('kitchen.business', state.business);
    return loadStations(state.business).then(function () {
      var saved = sessionStorage.getItem('kitchen.station');
      if (
        saved !== null &&
        $('station').querySelector('option[value="' + CSS.escape(saved) + '"]')
      ) {
        $('station').value = saved;
      }
      return chooseStation();
    });
  }

  function chooseStation() {
    state.station = $('station').value;
    sessionStorage.setItem('kitchen.station', state.station);
    state.tickets.clear();
    render();
    connect();
    var query =
      '?status=open' + (state.station ? '&station=' + encodeURIComponent(state.station) : '');
    return api('GET', '/businesses/' + state.business + '/kitchen/tickets' + query).then(
      function (json) {
        json.data.forEach(upsert);
        render();
      },
    );
  }

  function isOpen(ticket) {
    return ticket.status === 'queued' || ticket.status === 'preparing';
  }

  function upsert(ticket) {
    if (state.station && ticket.station !== state.station) return;
    if (isOpen(ticket)) state.tickets.set(ticket.uuid, ticket);
    else state.tickets.delete(ticket.uuid);
  }

  function beep() {
    try {
      var Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      var audio = beep.context || (beep.context = new Context());
      var oscillator = audio.createOscillator();
      var gain = audio.createGain();
      oscillator.frequency.value = 880;
      gain.gain.value = 0.2;
      oscillator.connect(gain);
      gain.connect(audio.destination);
      oscillator.start();
      oscillator.stop(audio.currentTime + 0.25);
    } catch {
      /* No sound is no reason to stop. */
    }
  }

  function connect() {
    if (state.source) state.source.close();
    var url =
      API +
      '/businesses/' +
      state.business +
      '/kitchen/stream?api_key=' +
      encodeURIComponent(state.apiKey) +
      '&access_token=' +
      encodeURIComponent(state.token) +
      (state.station ? '&station=' + encodeURIComponent(state.station) : '');
    var source = new EventSource(url);
    state.source = source;
    source.onopen = function () {
      $('status').textContent = t('live');
    };
    source.onerror = function () {
      $('status').textContent = t('reconnecting');
    };
    source.addEventListener('ticket.created', function (event) {
      var ticket = JSON.parse(event.data);
      upsert(ticket);
      render();
      beep();
    });
    source.addEventListener('ticket.updated', function (event) {
      upsert(JSON.parse(event.data));
      render();
    });
    source.addEventListener('stream.closed', function () {
      source.close();
      signOut();
    });
  }

  function ageMinutes(ticket) {
    return Math.max(0, Math.floor((Date.now() - Date.parse(ticket.created_at)) / 60000));
  }

  function whereTo(ticket) {
    if (ticket.fulfilment_type === 'dine_in')
      return ticket.table ? t('table') + ' ' + ticket.table : t('dineIn');
    return ticket.fulfilment_type === 'delivery' ? t('delivery') : t('pickup');
  }

  function clock(iso) {
    return new Date(iso).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' });
  }

  function el(tag, className, text) {
    var element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined) element.textContent = text;
    return element;
  }

  function card(ticket) {
    var age = ageMinutes(ticket);
    var article = el(
      'article',
      'card' +
        (ticket.kind === 'void' ? ' void' : '') +
        (age >= 20 ? ' age-late' : age >= 10 ? ' age-warn' : ''),
    );
    article.setAttribute('data-ticket-uuid', ticket.uuid);
    article.setAttribute('data-status', ticket.status);
    var title = el('h3');
    title.appendChild(
      el(
        'span',
        '',
        (ticket.kind === 'void' ? t('void') + ' ' : '') + '#' + ticket.order_reference,
      ),
    );
    title.appendChild(el('span', 'age', age + ' ' + t('minutes')));
    article.appendChild(title);
    article.appendChild(
      el(
        'p',
        'meta',
        ticket.station +
          ' · ' +
          whereTo(ticket) +
          ' · ' +
          t('wanted') +
          ' ' +
          (ticket.requested_time ? clock(ticket.requested_time) : t('asap')),
      ),
    );
    var list = el('ul');
    ticket.lines.forEach(function (line) {
      var item = el('li', 'line');
      item.setAttribute('data-line-uuid', line.line_uuid);
      item.setAttribute('data-status', line.status);
      item.setAttribute('role', 'button');
      item.tabIndex = 0;
      item.appendChild(el('strong', '', line.quantity + ' × ' + (line.title_name || '')));
      (line.options || []).forEach(function (o) {
        item.appendChild(
          el(
            'span',
            'sub',
            '+ ' +
              [o.group_title || o.group, o.option_title || o.option].filter(Boolean).join(': '),
          ),
        );
      });
      if (line.item_note) item.appendChild(el('span', 'sub', t('note') + ': ' + line.item_note));
      if (line.allergens && line.allergens.length) {
        item.appendChild(
          el('span', 'sub allergens', t('allergens') + ': ' + line.allergens.join(', ')),
        );
      }
      if (ticket.kind === 'new') {
        item.addEventListener('click', function (event) {
          event.stopPropagation();
          if (article.longPressed) return;
          moveLine(ticket, line);
        });
      }
      list.appendChild(item);
    });
    article.appendChild(list);
    if (ticket.general_note)
      article.appendChild(el('p', 'note', t('note') + ': ' + ticket.general_note));
    var bump = el('button', '', t('bump'));
    bump.type = 'button';
    bump.setAttribute('data-action', 'bump');
    bump.addEventListener('click', function () {
      bumpTicket(ticket);
    });
    article.appendChild(bump);
    longPress(article, function () {
      bumpTicket(ticket);
    });
    return article;
  }

  /** A press held LONG_PRESS_MS bumps; the click that ends it moves nothing. */
  function longPress(element, action) {
    var timer = null;
    var cancel = function () {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    element.addEventListener('pointerdown', function (event) {
      if (event.target.closest && event.target.closest('[data-action]')) return;
      element.longPressed = false;
      cancel();
      timer = setTimeout(function () {
        timer = null;
        element.longPressed = true;
        action();
      }, LONG_PRESS_MS);
    });
    ['pointerup', 'pointerleave', 'pointercancel'].forEach(function (name) {
      element.addEventListener(name, cancel);
    });
  }

  function report(error) {
    $('status').textContent = error.message;
  }

  function moveLine(ticket, line) {
    api('PUT', '/kitchen/tickets/' + ticket.uuid + '/lines/' + line.line_uuid, {
      status: NEXT[line.status],
    })
      .then(function (json) {
        upsert(json.data);
        render();
      })
      .catch(report);
  }

  function bumpTicket(ticket) {
    api('POST', '/kitchen/tickets/' + ticket.uuid + '/bump')
      .then(function (json) {
        upsert(json.data);
        render();
      })
      .catch(report);
  }

  function render() {
    var board = $('board');
    var tickets = Array.from(state.tickets.values()).sort(function (a, b) {
      return Date.parse(a.created_at) - Date.parse(b.created_at) || (a.uuid < b.uuid ? -1 : 1);
    });
    board.innerHTML = '';
    tickets.forEach(function (ticket) {
      board.appendChild(card(ticket));
    });
    $('empty').hidden = tickets.length > 0 || !state.business;
  }

  translatePage();
  $('api-key').value = state.apiKey || meta('dev-api-key');
  $('sign-in').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', signOut);
  $('business').addEventListener('change', chooseBusiness);
  $('station').addEventListener('change', chooseStation);
  setInterval(render, 30000);
  if (state.token && state.apiKey && state.userUuid) {
    start().catch(function () {
      signOut();
    });
  }
})();
