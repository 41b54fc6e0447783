// Written by `npm run docs:openapi-examples` (scripts/openapi-examples.ts) from real answers of
// the API: do not edit by hand. test/unit/openapi-document.test.ts checks each against its schema.

/** An operation's examples: its request, its parameters and its answers by status. */
export interface OperationExamples {
  request?: unknown;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  responses: Record<number, unknown>;
}

/** By operationId; '*' holds error answers true of every operation (a 413, a 415, a 429). */
export const OPERATION_EXAMPLES: Record<string, OperationExamples> = {
  cancelSandboxCheckout: {
    responses: {},
    params: {
      reference: 'pay_HZDYG0crjRAt6guR8S0mtQyF',
    },
  },
  createApiKey: {
    responses: {
      '201': {
        success: true,
        api_key: {
          key: 'psk_xgt7p43fINrzEuMBX6mZ3kzph6DF6eo1CNZnOwGE',
          id: '3',
          name: 'integração',
          prefix: 'psk_xgt7p43f',
          rate_limit_per_minute: 30,
          rate_limit_per_hour: null,
          daily_credit_limit: null,
          scopes: ['search'],
          seller_id: null,
          created_at: '2026-03-02T10:00:00.000Z',
          last_used_at: null,
          revoked_at: null,
        },
      },
    },
    request: {
      name: 'integração',
      rate_limit_per_minute: 30,
    },
  },
  deleteStockItem: {
    responses: {
      '200': {
        success: true,
        sku: 'FIL-4711',
      },
      '404': {
        success: false,
        mensagem: 'O vendedor não tem nenhum artigo com o SKU FIL-4711.',
        code: 'STOCK_ITEM_NOT_FOUND',
      },
    },
    params: {
      sku: 'FIL-4711',
    },
  },
  executeTool: {
    responses: {
      '200': {
        success: true,
        slug: 'identificar-peca',
        output: {
          imagem: {
            tipo: 'image/jpeg',
            largura: 480,
            altura: 265,
            bytes: 6963,
            leitura: 'lida',
            texto: ['BREMBO', '1PCS', '09.7251.43', 'Brake disc', 'EAN 4006633123456 QTY 1'],
          },
          referencias: [
            {
              referencia: '09.7251.43',
              normalizada: '09725143',
              artigos_em_stock: 5,
              preco_minimo: 11.57,
              peca: {
                id: 1351,
                nome: 'Disco de travão',
              },
              origem: ['imagem'],
              confianca: 0.92,
              corrigida: false,
            },
          ],
          pesquisa_sugerida: {
            reference: '09.7251.43',
          },
          nota: 'Referência em stock encontrada na imagem. Use pesquisa_sugerida em POST /data/search para ver as ofertas.',
        },
      },
      '404': {
        success: false,
        mensagem: 'Ferramenta desconhecida: identificar-motor. Disponíveis: identificar-peca.',
        code: 'TOOL_NOT_FOUND',
      },
    },
    request: {
      slug: 'identificar-peca',
      input: {
        image:
          'data:image/jpeg;base64,/9j/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAEJAeADASIAAhEBAxEB/8QAGwABAAEFAQAAAAAAAAAAAAAAAAYBAwQFBwL/xABAEAACAgECBAEJBgQFBAIDAAAAAQIDBAURBhIhMXETFCIyQVFhgbEHcpGhwdEjM2KCFUNSg8IkQkSSFvBFY7L/xAAWAQEBAQAAAAAAAAAAAAAAAAAAAQL/xAAXEQEBAQEAAAAAAAAAAAAAAAAAEQFB/9oADAMBAAIRAxEAPwCNgAjQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA3AALr2W5Xll/ol+AFAVcWu6a8ehTeK7zh/7r9wAKx2l6soy+69/oZUMC6zT7s6uVM6aWo2cti5oNvZbx7oDEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAN17yuzfZP8AKA9KEn2jL8CmzXfp4vYCgKOUU9nOC8Zo9Jb9mn4dfoBQF6OJkz/AJePfP7tM3+hkQ0fU7FvDTsyXhRJfVIDBBtYcOa1NejpmV/dGMfrIvw4T1yf/guP37oL9WBowSKvgvWZetXjw+9kb/SJfhwNqb9e/Ch4TnL9EBFgTCvgLK/zNQxkv6apv/kX4cBJP+Jqe6/px1+rJRCBuifQ4Dw0/T1DJfwUK1+jL8OCNLj3vzZf7qX0Qo50VSb7Rb+R0qPB2irq6siT+ORP9GXo8KaEu+nQl9+cpfVijmHLL/S/mjy9o+s0vFpHWIcPaLBdNKxPnWn9TIr0zTq1tXgYkfCmP7Co4/vH/XD/ANkz3Gqc/UjKf3YuX0R2WFNVfqVVx+7FI9p7dm0KOPV6dm2revDyp/dx5/sX69C1az1dNzPnS4/U61u/ewKOWV8L63Ptpt8fvSgv+Rfr4P1uXfFhD72RH9NzpgFVzmHBGrt+k8SK+N7f0iX4cCag36eXhpfBTf7E/AqIPDgK3f09Sq+WO39ZF+PAVPTn1K3+2iK+u5MQKIrHgXT162ZmPw5I/wDEvx4K0hetLLl43tfRIkYIrRx4R0NL0sWc/v3zf6l2HDGhQWy0yiX3t5fVm3AGvr0PSKl/D0zDX+zH9jJrwsSr+XiY8Pu1RX6F8AUjGMfVio+C2Od8c3RWv2QqSi5Y1cbmv+98zkt/BJHRTkvEOR53r2dcnunfKMfCO0V9GXEa4AFUAAAAAAAAAAAAAAAAAKpbtL39ANzi6DPNpqjhSsyMqVastgkoV0p+qpTb7tddktzMhwRq0l6UsSHjdJ/SJJ+CqPI8OU2NelkTnc/ju9l+SRviVEBhwJnNfxMzEj4RnL9i/DgKz/M1Kv8Asx3+sibgVUPr4CoX8zUbZfdpgv3L8OBtOj6+XmS+G8F/xJSBRHYcF6PF7t5cvg8hr6bF6PCOhRe/mcpP+q+b/U3mz9zBBqY8M6FF7/4XjN/1Jv6svw0XSYbcmmYa2/8A0R/YzLLa6Y81tkK49t5ySX5lq7Ow6MdZF2VRXTLtZKxKL8GEeoYmLWtq8aiP3a4r9C6koraKS8DXU6/o196pp1TEnZJ7KMbVu2ZOfn4mm4zyM/IroqXTmm+79y97Ayd373+II3j8dcPX5MaI5c4OT2jOyqUYv5kjAqAAoAAAAAAAAAAAAAAAAAeLp1V0znfOMKkvSlJ7JID2WpZFELo0zvqjbLtBzSk/l3NVws8eWm2zxtkrMmybit/RTl6K6/0pfiY1Wk3ahlZmRkOuFVmZ5SMJU/xJKvZQ9J9o7x36Lt4lRurdQwqchUW5VMLW0lBy67vt4blK9RxLcnzau5TtTcdoxbW67rfbbf5mu0Wy3G0+rGt0/L85ScsiUoLac+7fM36W77fLsU0nEycbNhHGjmUafGuXNTkyi/SbTXJtu0l133fuIN4AAoAAAAAAACzl3xxcS7Il6tVcpv5Lc43vKWzn6zW8vF9X+bOncZZHkOGsqKe0r+Wlf3PZ/lucxb3k373uXEUABVAAAAAAAAAAAAAAAAB12bj6yT28fZ+YM/Q8bzvWsKhrdTvhv4L0n/8AyB1TAx1iafjY0V0pqjD8FsYfEmqS0bQsrPrjGVlSXJGfZybSW5tCEfanleT0PFxIv0si/dr4RX7tGUYWXxZxNi6NjavbDS40ZDXJUlJza6+zf4G04u4iz9O4YwMvGSxs3Lcd4tKXJ6O7Wz+REMrT9NzlgUcJYedPPjJO2+UZKC2Xfr269dyRcZ4GXq3EGiaa6b7aIJO+2MHy7trmba6LovzNDEztT4o03U9Nx461TqF+U03j11R9HquktvF9fgZn2j6vkYeZpuFjZ1uJGzed065NbR3S9nzZbnoGXw7xpiZWg4WRPT7UldGHpKKb2km38mV4i0vXMjjaOp4ujrMx8aMY1xtnGMJ9H7373+ROi9wpVpmZrSsw+IdU1CzGTm4Xcyre/Td7+JFcrNy7OIcziCuybx8TUILbme2zbS/KP5nRNIlrs8bM8+0vDwp+T2x4UzXpS2fd+xdjX8N8I+Q4aytN1uMZSy7vKWeSs7JbbdffvuBE+N9St13/AK2mTWnVXeb4kX/nT23nP6L/AOs2HHVUqNK4e0Gitznyp+Tj0cnsopfi2SHV+EVm2aRRiWVY+n6c93U0259U39O/xK6/wrk6vr1OqVap5o6IRVSjTzuLTb36vb2lEPzMaF3FekYeo6NDRa+aO0adpSt69G2vitt/Z1Nvm8uvfajHAzvSxMKL5KZdpNR5n0+Lf4I32ncJV0atDVdT1HJ1LMq/lytSjGHgl4lzWuENN1fOWdOeRjZSSTsonyuW3b5/ElEf+01UXx0zTMWqEs2y30Ywit4xa2S6exv6E7xq3Ti01SlzSrrjFv3tLY1Oj8LaXpGQ8qqFt+XLvkZE+efy9xuwAAIoAAAAAAAAAAAAAAAAAAHfuwAAAAAAAAAAAAAAAQ37Q8nlowcVP1pztfyWy/ORBiR8dZHluIZVp9MemEPm95P9COGgAAAAAAAAAAAAAAAAAAAkvAeP5XXnc10x6JS+cmor9SNE7+z3G5cTNyWus7I1LwjHd/nJgTA8yhCTTlCMmu26T2PQMh7NvZ7h8wAgAAAAAAo2k9m0n7hJqMXKTSSW7b6bAVBhT1fTK1vPUcOPjfH9zKqtruqjbTOM65rmjKL3TXvTA9g064m0aeqw0yrNjblTlyqNcXJb+7mXQ3AAAiurcbYuDrVel42LPLtlNVylGajGMm9tu3Xb2gSoGBq2dfg10rFw5Zd99qqhWpcqXRtyk9nslsR3iHirVeHcnFWdg4VtORu9qbZ8y2237r4gTEHmuXPXGaTXMk9n3W56CgAAAAAAAAAAAAAAAAAAAAAAAAAADv0Bi6nkrD0zKym9vI0yn80un5hHK9YyPO9XzMhPdWXza8E+VflFGENnFKL7pJPx9v5g0oAAAAAAAAAAAAAAAAAAKpbySfZs6hwhj+b8M4e62landL+5t/TY5fGErHyQ9aXox8X0X1OzUUxx8eqiHq1QUF4JbE1FbbIVVTttkoQhFylJvZJLuyMUcUZmqYubm6NhUPCw0/4uTZKLtaW7UUl06e/3lftHyZ4/CV0a215e2FUmv9Le7+hqceUdI+ySU/VsyqpNfF2S2+gG80ri7EzuGb9ZvrlTHG3Vtae75vYl7990aqniDXNQ4cztfqtxsLHx+byVDp8o7Ntt95N/HboYvDnD3nX2fWYmRcsaeo3KyqU/htydPbvt2MbX8PUtC4Ir0jJyMRxsuUK40Rk7Lt5c23XsvDv0AmXCmtT17Q6822uNdvPKuyMe269q/EytclmR0bK/w2Mnlyhy1cvdSbS3+Xf5Gk0m7D4M4Sw4ava6bLG5SiouUnOXVrZe5bEnjbXKiNymvJyipqT6Lbbff8AIJq2j63p2nW5mo8X5bjDpGFMGpTk+0V1XVs3Ol6Lqf/xLzHM1G+OdkNTtulNylWm1vFPfvstvFjT0+ItWWrWrfTcSTjgwf+bPtK1/Rfie+KuJJ6H5KjGxLMjJvTkmoOUa1vtu0ur8AI59oOm6ZpumYVWBQ4Z1lyVbhKTsnFLru99312+Zv76NShwFDEyYXX51tMKbIx9KfpSSfzUX3I/i6vPy08rE0TVMzV7UoQzMqn0a2+nSK6RivcvxJjqOfm4Wo4tcMC/Jw51y8vZTXzyjLpy9N+3cIhWp4/D2gZVENU4UddF2/Jasnyj6d90n8e250BYuJkadDFjXF4k64xjBdE4dNl4bEO13SNT4v1nFUsS7B0zGTTsyEoznu+u0e/sSRLs2eXjY9dem4Ub3y8q3uVagktl37hUB4Yrrz/tLzsmmuMaMXynJGMUlFL0I7I6WQng3h3WdBy77MqnDsWS4+UsV7coxTbey5er3fvN1qmm6vma7g5GLqnm2BRs7aY781j3/AAaa6dew0WuItbqx8ivSqs2rFvujzW3ze3kK/evfJ+xfMg8L9Ml9oWNLHklpuFyqtwjKe6jHffot23J9/edSy6bLKp+bSqqve3LZOrnS+XTf8SOaXwhZp2s2arDV7JZF0m7f+njtJN7tLdvYCS+UjbGUK7UpuCfxjv2bX7nNNe8vp3HuDDNsWsOfk+SORHZ180ttko9N/b2JzkaG56rfqWLqeZi3XwjCxV8kotR7dJJ//WeNP4Z0/C1CWozd2XnSe/nGTPmkn8F2QG6fdgAigAAAAAAAAAAAAAAAAAAAAAAAAAAEe44v8jw5ZXv1yLIVfLfd/kmSEhP2iZHp4OKn2U7mvwivqy4IVvu9/eACgAAAAAAAAAAAAAAAAAANpw3j+dcQYNbW68spy8Ipy+qR1c599n+P5TWLshrpRRsvGctvpE6CTUYeq6bi6vp9mFmwcqrNuz2aa7NP3mqhwliSx8bGzcvLzMTFe9WPbKKgtu2+yTl8yQggwdT0jC1SiqnLhPkpmp1+Tm4OEl0TWxbx9D0/Hyo5fkp35MVtG7IslbOPg5Pp8jZADGzdPws9VrNxashVS54KyO/K/eX5RjODhKKlFrZxa3TXgegB5hCMIqMIqMYrZJLZJHrr7AAG797/ABAAAAAAAFAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAOZca5Hl+JL4p7qiEKl8lzP85HTfHscc1DI871DIyX/nWzsXg5Pb8ki4McAFAAAAAAAAAAAAAAAAAPsCsduZb9l1YE/+z/H8npeVkNdbr+VP4QSX1bJWanhfHeLw3g1yW0pVKyXjL0n9TaylGMXKUlGK7tvZImoqC3VdVcm6ba7Ens3CSlt+BcIoCzdk1U3UVWS2nfJwrW3dpNv8kXJzjXFyslGCXTeT2QHoBdTX26xiLKoxqLa8i629UuFdibh0bbfhsBsAa6Or4saIWX2QXlJT8nGre1zjF7c2yX4+493ari1ShBeWtsnBWKuqqU5KL7NpLp8wjOBRPeKfVbrfqtioUAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABga5leZaHm5Kezrpk4+LWy/No5Hy8u0f9KUfw6HRuPMjyWgxp365F8ItfBek/oc58S4gACqAAAAAAAAAAAAAAAAHummWRdCiPrWyVa/uaj+p4Nxwnj+c8SYUWt1Cbtf9sW/q0B1KMFXCMIraMUorwRo+KpKeNhYfPTDznLgn5b1OWG83v716K6fE3pavxsfJUVkUVXKL3SsgpbfiZREK5WVx1azFnRDJvuoxKsjDjy1bt9eVe2Ud3u93+RmaxZVj3ywHZbJxq8u5322ydre62jGDW76e/Zb9iTRhCEFCEIxjHsktkvkeikQ116xZRpU4K2dmLg+VvfVWS52k4xb6c6in3/Uu5OJOWf0xch4Xm8PNoeZ+W6vdz5lJ9J77buX4ktAGseDfRw3LAwbZ+XhjOuqdj2kpbdN37DX0YOXZlYd1emww68HEshTGc4uTtkkl6u+y6Pr8SRgCNT0XMji4uPjVqm+jGjTHMrypRcX3lvFL0lzddvabCnCz8XU8m6mzHsqypVynK3mU4uMVFpJdGum67bNs2oFAAEUAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABBPtDyObMw8VP+XVKx+Mnyr8kyHm64uyPOOJMxp7qtxpX9sev5yZpTQAAAAAAAAAAAAAAAAAAAS/7Pcfm1DLyWulVMa14ye7/KKIgdF4Cx/JaHZc11vvk14R2ivoyaJMACAAAABTdNuKa3Xde0IqC1HIolXOyN9ThXvzyU01Hbvu/YWv8AEcHzXzpZdUqObl54y3Tl7lt3fwAygYV+q4WPRC622SrnHnUlXJpR972XReIyNTx8fIrqtVy8pKMI2KqThvL1VzduoGaDErz67NQvwlVcrKYKxuUNoyTbS2ft7P8AAs1anOzIvx5YN1V1VKuUZyjtKLbS6ptJ7p9wNiDWYurxuxr7raXDyVqqXJNWK2TSaUWu/fb4bP3GHdxBdDAwcl49dKyYTsnKznlCqK7buK9u/wAEBvwaPL1qcM3zaqddcKvJq650ysjzT7Lo1yrqur966G6tnGqudlj2jCLlL4JdWB6BocLK1DKysKNmS4LOxZ3yhCEf+nW8eRptdX6Xt33LNU818PZGpvUsiU489tXO4qPJGb2TSS7qO2/xAkgMPTo5DpeRlyflb9puvfeNS26RX6v2swOIbcXzjTaLsiFdk8qGydvLtFek3tv7eXbr7wN2AAoAAAAAAAAAAAAAAAAAAAAAAAAUlJQi5Se0Yrd+BU1fEuS8Th3Oti9peScI+MvRX1COWZFzycizIl3unKx/3Nv6NFsq0k9l2XReCKGlAAAAAAAAAAAAAAAAAABVPlfM+0fS/Dqda0DGeHoODjtbShTFy8Wt3+bOV4WO8vMoxkv51sK/xkt/y3OybJdF29hNRr9cyrsPS7LMXfzicoV1JRUnzSkl0T6P2mBm5uRiYCqlkZVeVlTcK5XVxcq4pbymowT/AD9rRt8zDozao15MHKMZqcdpOO0l2e6GPhY2NNTpqUZqPKpczb23323b95BF79cyYVYOoeXl5vRhQsyY+yc7FJRb8HH8yT6dC2vTsaGROU7VVFTlJ7ty267/ADKwwsSFcq44tKhJJSjyLZ7dt/AyAItZlZuRr9Vs8PKrnjY99tdUkuVdOWD6Pq29/wAl7zBqqvlg25OKnPlw1C66uEueyVkoOe77ylFc76dt0ibgtEPlgXODthVbHDtyaYy8hj7OVVcZNS5Or2cml8ky/Zi6pNYduRXm28kL3BVzjGyMpPavne62fL3aJSBRoc3E1DLwcfAshdK2Ea1bkO1Kqfbmco77y7NbNdS/diZOZq2NkTx/IQxrHLnd/Opx2aSUF0Te++76o24INRTjapHM1DKccSFl9cIU7zlNQ5U9t+i6bts9YeFn0YlkZTw3kWTUrLJRnNWdOvN1XyS6JG1AGmjw/jywpU3WSdrlZNWVN1qEprZ8sU+i+H7l3/BtsKGBXmXQwY1KqVMUt5L2+k+q39ptABrpaNjSy5XOdqhOcLJUKS8m5RSUXttv02XTfbojPlGM4SjNKUZJpp+1M9DZ+5gYOBpeNp87ZY/lNrFGKU5uXJGK2UU312+BkRxceOIsWNMPN1HkVe3o8vu2L2zXdM8Strgt52Qj4ySA9nlwi5czjFv3tdTHnqWBWvTzsWPjdH9zGnxBosHtLVcPde61P6AbMGmlxXoMXt/iVbf9MZP6Isz4x0SL2V18vu48/wBgrfgjM+ONJj6tWbP4qpL6ssT48wl/LwMqS+MoR/UsRLQQufH0f8vS5P72Ql9EyxPj3Jf8vTseP3rpP6REE7Bz6fHWpy9TGw4fKcv1RYnxrrMl0niw+7Rv9ZCDpAOYS4t1yX/mqP3KYL9GWJcSa3P1tTyPlyx+kRB1YbP3P8DkUtZ1SfralmtfG+X6bFieZlT9fKyJb/6r5v8AUQdjb279PEtTysaHr5FMfGyK/U43J8z3l1fxbf1PPJDffkhv9xCK69PWdKr6T1LDi/jfH9zHnxNoUHtLVcbf4S3+hyrw2+SK80v9T/EQdOnxdoUP/NcvuUzf6FmfGmjR9V5U/u47/XY5vu/eygg6FPjrTYr0MXMn/bGP1kWJ8e46X8PTb3962Ef3IIBBNJ8fT2/h6ZFP+vI/aJhZvE0dTql/iHoxgnKnGoi3GVm3oynNtNpPqkl3IwCoLsAAoAAAAAAAAAAAAAAAAAAN5wdQruJMNy9WHlLVv7XGO3/I6ecjr1Lyen1YqxoqymyVteTCyULISffZr2bI82avqdnr6jmS/wB+S+jJuI69s/c/wKNqK9JpeL2ONzysmxbWZF8/vXTf6ll+l6yUvvdfqIrsk8vFrW9mTRBf1WRX6mPPWtJrXp6nhr/ej+5yJRiu0IL+1FV07dPDoIOqS4n0KP8A+Uxn91uX0RZlxfoS7Zkpfdpm/wBDmXNJ/wDc/wASnV922IOkT410eL2XncvDHa+pYnx1p0X6OJmS+O0F/wAjn2wEE6nx9Qn6Gm3Ne93QX7lifH1m/wDD0yvb+rIf6RIYBESyfHme/wCXhYkfvSm/2LM+N9Xl6kcOHhU39ZEZBRv58Y65Ptk1Q+7jx/XcsT4o1ya66javuQhH/iacAbGevaxNbT1PMfhbt9EixPUc+xbWZ2XNf1ZE/wBzFAV7lbZP17Jy+9OUvqy3yx335If+qKgAoxXaMV4RSK8z97KACrk33k/xKAANgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAf//Z',
        description: 'disco de travão',
      },
    },
  },
  getAccount: {
    responses: {
      '200': {
        success: true,
        account: {
          id: '2',
          email: 'ana@example.com',
          name: 'Ana',
          credits: 50,
          daily_credit_limit: null,
          created_at: '2026-03-02T10:00:00.000Z',
        },
        plan: {
          rate_limit_per_minute: 60,
          rate_limit_per_hour: 1000,
          daily_credits: null,
        },
      },
      '401': {
        success: false,
        mensagem: 'Autenticação em falta: envie Authorization: Bearer <token>.',
        code: 'UNAUTHORIZED',
      },
    },
  },
  getCreditBalance: {
    responses: {
      '200': {
        success: true,
        credits: 48,
        daily_credit_limit: 500,
        spent_today: 2,
      },
    },
  },
  getFeedTemplate: {
    responses: {
      '200':
        'sku;referencia;titulo;descricao;condicao;preco;moeda;quantidade;is_oem;is_aftermarket;marca;modelo;variante;parte_id;referencias;pais\r\nFIL-4711;1K0 129 620 D;Filtro de ar;Caixa original, sem uso;novo;12,50;EUR;3;sim;não;Volkswagen;Golf;;;A 123 456|WA9567;PT\r\nALT-0042;06F 903 023 F;Alternador;Testado, 90 A;usado_bom;85,00;EUR;1;sim;não;Audi;A3;8P;;;\r\n',
    },
  },
  getHealth: {
    responses: {
      '200': {
        success: true,
        status: 'ok',
      },
    },
  },
  getReadiness: {
    responses: {
      '200': {
        success: true,
        status: 'ok',
        checks: {
          postgres: {
            ok: true,
            ms: 1,
          },
          search_engine: {
            ok: true,
            ms: 1,
          },
        },
      },
    },
  },
  getSandboxCheckoutPage: {
    responses: {
      '404': {
        success: false,
        mensagem: 'Pagamento desconhecido: pay_000000000000.',
        code: 'PAYMENT_NOT_FOUND',
      },
    },
    params: {
      reference: 'pay_SMojiopUSlhvYuwt9JCGqjjW',
    },
  },
  getSearchStats: {
    responses: {
      '200': {
        success: true,
        credits_spent: 1,
        credits_remaining: 48,
        stats: {
          price_min: 19.37,
          price_max: 60.71,
          price_avg: 37.87,
          total_sellers: 23,
          total_results: 23,
          by_condition: {
            usado_bom: {
              count: 1,
              price_min: 28.56,
              price_max: 28.56,
              price_avg: 28.56,
            },
            novo: {
              count: 22,
              price_min: 19.37,
              price_max: 60.71,
              price_avg: 38.3,
            },
          },
          price_median: 37.37,
          price_p25: 29.42,
          price_p75: 46.6,
          histogram: [
            {
              from: 19.37,
              to: 21.44,
              count: 2,
            },
            {
              from: 21.44,
              to: 23.5,
              count: 0,
            },
            {
              from: 23.5,
              to: 25.57,
              count: 3,
            },
            {
              from: 25.57,
              to: 27.64,
              count: 0,
            },
            {
              from: 27.64,
              to: 29.71,
              count: 1,
            },
            {
              from: 29.71,
              to: 31.77,
              count: 2,
            },
            {
              from: 31.77,
              to: 33.84,
              count: 2,
            },
            {
              from: 33.84,
              to: 35.91,
              count: 1,
            },
            {
              from: 35.91,
              to: 37.97,
              count: 2,
            },
            {
              from: 37.97,
              to: 40.04,
              count: 0,
            },
            {
              from: 40.04,
              to: 42.11,
              count: 0,
            },
            {
              from: 42.11,
              to: 44.17,
              count: 2,
            },
            {
              from: 44.17,
              to: 46.24,
              count: 2,
            },
            {
              from: 46.24,
              to: 48.31,
              count: 2,
            },
            {
              from: 48.31,
              to: 50.38,
              count: 1,
            },
            {
              from: 50.38,
              to: 52.44,
              count: 1,
            },
            {
              from: 52.44,
              to: 54.51,
              count: 0,
            },
            {
              from: 54.51,
              to: 56.58,
              count: 0,
            },
            {
              from: 56.58,
              to: 58.64,
              count: 1,
            },
            {
              from: 58.64,
              to: 60.71,
              count: 1,
            },
          ],
          by_country: {
            SK: {
              count: 1,
              price_min: 49.5,
              price_max: 49.5,
              price_avg: 49.5,
            },
            PT: {
              count: 9,
              price_min: 24.57,
              price_max: 60.71,
              price_avg: 39.43,
            },
            ES: {
              count: 3,
              price_min: 21.27,
              price_max: 51.79,
              price_avg: 34.44,
            },
            CZ: {
              count: 1,
              price_min: 37.52,
              price_max: 37.52,
              price_avg: 37.52,
            },
            FR: {
              count: 1,
              price_min: 31.87,
              price_max: 31.87,
              price_avg: 31.87,
            },
            NL: {
              count: 1,
              price_min: 24.64,
              price_max: 24.64,
              price_avg: 24.64,
            },
            SE: {
              count: 1,
              price_min: 47.65,
              price_max: 47.65,
              price_avg: 47.65,
            },
            GR: {
              count: 1,
              price_min: 19.37,
              price_max: 19.37,
              price_avg: 19.37,
            },
            HU: {
              count: 1,
              price_min: 43.89,
              price_max: 43.89,
              price_avg: 43.89,
            },
            AT: {
              count: 1,
              price_min: 45.55,
              price_max: 45.55,
              price_avg: 45.55,
            },
            DE: {
              count: 3,
              price_min: 25.46,
              price_max: 44.3,
              price_avg: 37.63,
            },
          },
        },
      },
      '400': {
        success: false,
        mensagem:
          'O campo corpo.condition deve ser um de: novo, usado_bom, usado_aceitavel, recondicionado, para_pecas.',
        code: 'VALIDATION_ERROR',
        campos: [
          {
            campo: 'corpo.condition',
            motivo: 'enum',
            mensagem:
              'O campo corpo.condition deve ser um de: novo, usado_bom, usado_aceitavel, recondicionado, para_pecas.',
          },
        ],
      },
      '402': {
        success: false,
        mensagem: 'Limite diário de gastos da conta atingido: 1 de 1 créditos gastos hoje (UTC).',
        code: 'DAILY_LIMIT_REACHED',
        daily_credit_limit: 1,
        spent_today: 1,
      },
    },
    request: {
      reference: '55 834 767',
    },
  },
  getStockFeed: {
    responses: {
      '200': {
        success: true,
        feed: {
          id: '1',
          seller_id: '401',
          mode: 'delta',
          format: 'csv',
          gzipped: false,
          dry_run: false,
          force: false,
          status: 'done',
          bytes: 667,
          counts: {
            lines: 5,
            created: 3,
            updated: 1,
            unchanged: 0,
            removed: 0,
            rejected: 1,
          },
          warnings: [],
          reason: null,
          reason_code: null,
          created_at: '2026-03-02T10:00:00.000Z',
          received_at: '2026-03-02T10:00:00.000Z',
          started_at: '2026-03-02T10:00:00.000Z',
          finished_at: '2026-03-02T10:00:00.000Z',
          first_errors: [
            {
              line: 6,
              sku: 'PAS-0100',
              field: 'preco',
              message: 'O campo preco é obrigatório.',
            },
          ],
        },
      },
      '404': {
        success: false,
        mensagem: 'Feed não encontrado.',
        code: 'FEED_NOT_FOUND',
      },
    },
    params: {
      id: '1',
    },
  },
  getStockFeedErrors: {
    responses: {
      '200': 'linha,sku,campo,mensagem\r\n6,PAS-0100,preco,O campo preco é obrigatório.\r\n',
    },
    params: {
      id: '1',
    },
  },
  getStockItem: {
    responses: {
      '200': {
        success: true,
        item: {
          sku: 'FIL-4711',
          id: '4001',
          reference: '1K0 129 620 D',
          title: 'Filtro de ar',
          description: 'Caixa original, sem uso',
          condition: 'novo',
          price: 11.9,
          currency: 'EUR',
          quantity: 2,
          is_oem: true,
          is_aftermarket: false,
          vehicle_make: 'Volkswagen',
          vehicle_model: 'Golf',
          vehicle_variant: null,
          part_id: null,
          country: 'PT',
          references: ['A 123 456', 'WA9567'],
          version: '4003',
          updated_at: '2026-03-02T10:00:00.000Z',
        },
      },
      '404': {
        success: false,
        mensagem: 'O vendedor não tem nenhum artigo com o SKU FIL-0000.',
        code: 'STOCK_ITEM_NOT_FOUND',
      },
    },
    params: {
      sku: 'FIL-4711',
    },
  },
  listApiKeys: {
    responses: {
      '200': {
        success: true,
        api_keys: [
          {
            id: '3',
            name: 'integração',
            prefix: 'psk_xgt7p43f',
            rate_limit_per_minute: 30,
            rate_limit_per_hour: null,
            daily_credit_limit: null,
            scopes: ['search'],
            seller_id: null,
            created_at: '2026-03-02T10:00:00.000Z',
            last_used_at: null,
            revoked_at: null,
          },
        ],
      },
    },
  },
  listConditions: {
    responses: {
      '200': {
        success: true,
        total: 5,
        page: 1,
        total_pages: 1,
        results: [
          {
            code: 'novo',
            name: 'New',
          },
          {
            code: 'usado_bom',
            name: 'Used, good condition',
          },
          {
            code: 'usado_aceitavel',
            name: 'Used, fair condition',
          },
          {
            code: 'recondicionado',
            name: 'Remanufactured',
          },
          {
            code: 'para_pecas',
            name: 'For parts',
          },
        ],
      },
    },
    query: {
      lang: 'en',
    },
  },
  listCountries: {
    responses: {
      '200': {
        success: true,
        total: 1,
        page: 1,
        total_pages: 1,
        results: [
          {
            code: 'AT',
            name: 'Österreich',
          },
        ],
      },
    },
    query: {
      lang: 'de',
      q: 'osterreich',
    },
  },
  listCreditHistory: {
    responses: {
      '200': {
        success: true,
        total: 2,
        page: 1,
        per_page: 2,
        total_pages: 1,
        results: [
          {
            id: 's2',
            kind: 'search',
            credits: 0,
            balance_after: null,
            created_at: '2026-03-02T10:00:00.000Z',
            search: {
              query: {
                reference: '55834767',
              },
              query_summary: 'reference=55834767',
              total: 23,
              page: 2,
              token_status: 'valid',
            },
          },
          {
            id: 's1',
            kind: 'search',
            credits: -1,
            balance_after: 49,
            created_at: '2026-03-02T10:00:00.000Z',
            search: {
              query: {
                reference: '55834767',
              },
              query_summary: 'reference=55834767',
              total: 23,
              page: 1,
              token_status: 'none',
            },
          },
        ],
      },
      '400': {
        success: false,
        mensagem: 'O parâmetro from deve ser anterior a to.',
        code: 'INVALID_DATE_RANGE',
      },
    },
    query: {
      kind: 'search',
      per_page: 2,
    },
  },
  listCreditPackages: {
    responses: {
      '200': {
        success: true,
        packages: [
          {
            id: 'starter',
            name: 'Starter',
            credits: 500,
            price_eur: 19,
          },
          {
            id: 'pro',
            name: 'Pro',
            credits: 2500,
            price_eur: 79,
          },
          {
            id: 'business',
            name: 'Business',
            credits: 10000,
            price_eur: 249,
          },
          {
            id: 'scale',
            name: 'Scale',
            credits: 50000,
            price_eur: 990,
          },
        ],
      },
    },
  },
  listFuels: {
    responses: {
      '200': {
        success: true,
        total: 8,
        page: 1,
        total_pages: 3,
        results: [
          {
            code: 'petrol',
            name: 'Petrol',
          },
          {
            code: 'diesel',
            name: 'Diesel',
          },
          {
            code: 'hybrid',
            name: 'Hybrid',
          },
        ],
      },
    },
    query: {
      lang: 'en',
      per_page: 3,
    },
  },
  listLabellingTypes: {
    responses: {
      '200': {
        success: true,
        total: 6,
        page: 1,
        total_pages: 2,
        results: [
          {
            code: 'oem_label',
            name: "Manufacturer's original label",
          },
          {
            code: 'seller_label',
            name: "Seller's label",
          },
          {
            code: 'barcode',
            name: 'Barcode',
          },
        ],
      },
    },
    query: {
      lang: 'en',
      per_page: 3,
    },
  },
  listLanguages: {
    responses: {
      '200': {
        success: true,
        total: 6,
        page: 1,
        total_pages: 1,
        results: [
          {
            code: 'pt',
            name: 'Português',
            native_name: 'Português',
          },
          {
            code: 'en',
            name: 'Inglês',
            native_name: 'English',
          },
          {
            code: 'es',
            name: 'Espanhol',
            native_name: 'Español',
          },
          {
            code: 'fr',
            name: 'Francês',
            native_name: 'Français',
          },
          {
            code: 'de',
            name: 'Alemão',
            native_name: 'Deutsch',
          },
          {
            code: 'it',
            name: 'Italiano',
            native_name: 'Italiano',
          },
        ],
      },
    },
  },
  listPackagingTypes: {
    responses: {
      '200': {
        success: true,
        total: 8,
        page: 1,
        total_pages: 3,
        results: [
          {
            code: 'box',
            name: 'Cardboard box',
          },
          {
            code: 'blister',
            name: 'Blister pack',
          },
          {
            code: 'bag',
            name: 'Bag',
          },
        ],
      },
    },
    query: {
      lang: 'en',
      per_page: 3,
    },
  },
  listPartGroups: {
    responses: {
      '200': {
        success: true,
        total: 21,
        page: 1,
        total_pages: 7,
        results: [
          {
            code: 'engine',
            name: 'Engine',
          },
          {
            code: 'timing',
            name: 'Timing drive',
          },
          {
            code: 'cooling',
            name: 'Engine cooling',
          },
        ],
      },
    },
    query: {
      lang: 'en',
      per_page: 3,
    },
  },
  listPartLocations: {
    responses: {
      '200': {
        success: true,
        total: 26,
        page: 1,
        total_pages: 9,
        results: [
          {
            code: 'front',
            name: 'Front',
          },
          {
            code: 'front_inner',
            name: 'Front inner',
          },
          {
            code: 'front_lower',
            name: 'Front lower',
          },
        ],
      },
    },
    query: {
      lang: 'en',
      per_page: 3,
    },
  },
  listParts: {
    responses: {
      '200': {
        success: true,
        total: 53,
        page: 1,
        total_pages: 18,
        results: [
          {
            id: 1171,
            name: 'Pinça de travão',
            type: 'hydraulic',
            group: 'brakes',
            location: null,
            side: null,
          },
          {
            id: 1172,
            name: 'Pinça de travão esquerda',
            type: 'hydraulic',
            group: 'brakes',
            location: null,
            side: 'left',
          },
          {
            id: 1173,
            name: 'Pinça de travão direita',
            type: 'hydraulic',
            group: 'brakes',
            location: null,
            side: 'right',
          },
        ],
      },
      '400': {
        success: false,
        mensagem: 'O campo query.per_page deve ser no máximo 500.',
        code: 'VALIDATION_ERROR',
        campos: [
          {
            campo: 'query.per_page',
            motivo: 'maximum',
            mensagem: 'O campo query.per_page deve ser no máximo 500.',
          },
        ],
      },
    },
    query: {
      q: 'travao',
      lang: 'pt',
      per_page: 3,
    },
  },
  listPartSides: {
    responses: {
      '200': {
        success: true,
        total: 2,
        page: 1,
        total_pages: 1,
        results: [
          {
            code: 'left',
            name: 'Left',
          },
          {
            code: 'right',
            name: 'Right',
          },
        ],
      },
    },
    query: {
      lang: 'en',
      per_page: 3,
    },
  },
  listPartTypes: {
    responses: {
      '200': {
        success: true,
        total: 49,
        page: 1,
        total_pages: 17,
        results: [
          {
            code: 'engine_internal',
            name: 'Internal engine parts',
          },
          {
            code: 'sensor',
            name: 'Sensors',
          },
          {
            code: 'filter',
            name: 'Filters',
          },
        ],
      },
    },
    query: {
      lang: 'en',
      per_page: 3,
    },
  },
  listQualityLevels: {
    responses: {
      '200': {
        success: true,
        total: 6,
        page: 1,
        total_pages: 2,
        results: [
          {
            code: 'oem',
            name: 'Original equipment (OEM)',
          },
          {
            code: 'oes',
            name: 'Original equipment supplier (OES)',
          },
          {
            code: 'premium',
            name: 'Premium aftermarket',
          },
        ],
      },
    },
    query: {
      lang: 'en',
      per_page: 3,
    },
  },
  listSellers: {
    responses: {
      '200': {
        success: true,
        sellers: [
          {
            id: '401',
            name: 'Peças Ana',
            country: 'PT',
            city: 'Lisboa',
            items: 0,
            created_at: '2026-03-02T10:00:00.000Z',
          },
        ],
      },
    },
  },
  listStockBrands: {
    responses: {
      '200': {
        success: true,
        total: 18,
        page: 1,
        total_pages: 6,
        results: [
          {
            name: 'Volkswagen',
            items: 555,
          },
          {
            name: 'Renault',
            items: 378,
          },
          {
            name: 'Peugeot',
            items: 324,
          },
        ],
      },
    },
    query: {
      per_page: 3,
    },
  },
  listStockFeeds: {
    responses: {
      '200': {
        success: true,
        feeds: [
          {
            id: '1',
            seller_id: '401',
            mode: 'delta',
            format: 'csv',
            gzipped: false,
            dry_run: false,
            force: false,
            status: 'done',
            bytes: 667,
            counts: {
              lines: 5,
              created: 3,
              updated: 1,
              unchanged: 0,
              removed: 0,
              rejected: 1,
            },
            warnings: [],
            reason: null,
            reason_code: null,
            created_at: '2026-03-02T10:00:00.000Z',
            received_at: '2026-03-02T10:00:00.000Z',
            started_at: '2026-03-02T10:00:00.000Z',
            finished_at: '2026-03-02T10:00:00.000Z',
          },
        ],
        total: 1,
        page: 1,
        per_page: 5,
      },
    },
    query: {
      per_page: 5,
    },
  },
  listStockItems: {
    responses: {
      '200': {
        success: true,
        items: [
          {
            sku: 'FIL-4711',
            id: '4001',
            reference: '1K0 129 620 D',
            title: 'Filtro de ar',
            description: 'Caixa original, sem uso',
            condition: 'novo',
            price: 11.9,
            currency: 'EUR',
            quantity: 2,
            is_oem: true,
            is_aftermarket: false,
            vehicle_make: 'Volkswagen',
            vehicle_model: 'Golf',
            vehicle_variant: null,
            part_id: null,
            country: 'PT',
            references: ['A 123 456', 'WA9567'],
            version: '4003',
            updated_at: '2026-03-02T10:00:00.000Z',
          },
        ],
        total: 1,
        page: 1,
        per_page: 10,
      },
      '400': {
        success: false,
        mensagem: 'Indique o vendedor (seller=ID): a sessão pode escrever o stock de todos os da conta.',
        code: 'VALIDATION_ERROR',
      },
    },
    query: {
      seller: '401',
      per_page: 10,
    },
  },
  listStockModels: {
    responses: {
      '200': {
        success: true,
        total: 50,
        page: 1,
        total_pages: 17,
        results: [
          {
            name: 'Golf VII',
            items: 35,
          },
          {
            name: 'Polo VI',
            items: 34,
          },
          {
            name: 'Jetta',
            items: 32,
          },
        ],
      },
    },
    params: {
      brand: 'Volkswagen',
    },
    query: {
      per_page: 3,
    },
  },
  listStockVariants: {
    responses: {
      '200': {
        success: true,
        total: 6,
        page: 1,
        total_pages: 2,
        results: [
          {
            name: '1.0 TSI 102 cv',
            items: 9,
          },
          {
            name: '1.6 eHybrid 241 cv',
            items: 7,
          },
          {
            name: '1.6 TDI 107 cv',
            items: 5,
          },
        ],
      },
    },
    params: {
      model: 'Golf VII',
    },
    query: {
      per_page: 3,
    },
  },
  listTools: {
    responses: {
      '200': {
        success: true,
        tools: [
          {
            slug: 'identificar-peca',
            summary:
              'Lê as referências impressas na foto (peça, caixa ou etiqueta) e as escritas na descrição, e indica para cada uma quantos artigos em stock a têm, o preço mínimo e a peça do catálogo. Não gasta créditos.',
            input_schema: {
              type: 'object',
              additionalProperties: false,
              required: ['image', 'description'],
              description: 'A photo of the part, its box or its label, and what the caller knows of it.',
              properties: {
                image: {
                  type: 'string',
                  minLength: 1,
                  description:
                    '`data:<mime>;base64,<data>` of a PNG, JPEG, WebP or GIF (at most 700 KB, 24 megapixels, 10,000 pixels a side): a photo of the part, its box or its label, whose printed part numbers are read.',
                },
                description: {
                  type: 'string',
                  minLength: 1,
                  maxLength: 2000,
                  description:
                    'Free text: what the part is, and any reference the caller has (those are looked up too).',
                },
              },
            },
            output_schema: {
              type: 'object',
              additionalProperties: false,
              required: ['imagem', 'referencias', 'pesquisa_sugerida', 'nota'],
              description: 'What identificar-peca found.',
              properties: {
                imagem: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['tipo', 'largura', 'altura', 'bytes', 'leitura', 'texto'],
                  description: 'The image, and what was read of it.',
                  properties: {
                    tipo: {
                      type: 'string',
                      description: 'Its media type.',
                    },
                    largura: {
                      type: 'integer',
                      description: 'Width in pixels.',
                    },
                    altura: {
                      type: 'integer',
                      description: 'Height in pixels.',
                    },
                    bytes: {
                      type: 'integer',
                    },
                    leitura: {
                      type: 'string',
                      description:
                        '`lida`: read; `sem_texto`: read, no text found; `tempo_esgotado`: not read in time (the answer comes from the description alone); `falhou`: the reader failed. Closed list.',
                      enum: ['lida', 'sem_texto', 'tempo_esgotado', 'falhou'],
                    },
                    texto: {
                      description: 'The lines of text read in the image (at most 20).',
                      type: 'array',
                      items: {
                        type: 'string',
                      },
                    },
                  },
                },
                referencias: {
                  description:
                    'References read in the image or written in the description: stocked ones first, then by confidence; of those not stocked, only the ones read in the image (at most 10).',
                  type: 'array',
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    required: [
                      'referencia',
                      'normalizada',
                      'artigos_em_stock',
                      'preco_minimo',
                      'peca',
                      'origem',
                      'confianca',
                      'corrigida',
                    ],
                    description:
                      'A reference read in the image or written in the description, looked up in stock.',
                    properties: {
                      referencia: {
                        type: 'string',
                        description: 'As read or written.',
                      },
                      normalizada: {
                        type: 'string',
                        description:
                          'Normalized as a search normalizes it: `1K0-615-301-AA` is `1K0615301AA`.',
                      },
                      artigos_em_stock: {
                        type: 'integer',
                        minimum: 0,
                        description: 'Stock items it matches (own, associated or cross-reference).',
                      },
                      preco_minimo: {
                        type: ['number', 'null'],
                        description: 'The lowest of their prices, in EUR; null when none is stocked.',
                      },
                      peca: {
                        description: 'The catalog part most of its items are; null when unknown.',
                        anyOf: [
                          {
                            type: 'object',
                            additionalProperties: false,
                            required: ['id', 'nome'],
                            description: 'The catalog part most of the reference’s items are.',
                            properties: {
                              id: {
                                type: 'integer',
                                description: 'What a search’s `part_id` takes.',
                              },
                              nome: {
                                type: ['string', 'null'],
                                description: 'Its Portuguese name.',
                              },
                            },
                          },
                          {
                            type: 'null',
                          },
                        ],
                      },
                      origem: {
                        type: 'array',
                        items: {
                          type: 'string',
                          enum: ['imagem', 'descricao'],
                          description:
                            'Where a reference was found: read in the image, or written in the description. Closed list.',
                        },
                        minItems: 1,
                        uniqueItems: true,
                        description: 'Where it was found: the image, the description, or both.',
                      },
                      confianca: {
                        type: 'number',
                        minimum: 0,
                        maximum: 1,
                        description:
                          'The recogniser’s confidence in the least sure word of the reading; 0.95 for what the description says.',
                      },
                      corrigida: {
                        description:
                          'Found by correcting a likely misreading (O/0, I/1, S/5, B/8, a stray character at an end).',
                        type: 'boolean',
                      },
                    },
                  },
                },
                pesquisa_sugerida: {
                  description: 'The search to run next; null when there is nothing to search by.',
                  anyOf: [
                    {
                      type: 'object',
                      additionalProperties: false,
                      description:
                        'A body for POST /data/search: the first reference when it is stocked, else the description’s words as `text`.',
                      properties: {
                        reference: {
                          type: 'string',
                        },
                        text: {
                          type: 'string',
                        },
                      },
                    },
                    {
                      type: 'null',
                    },
                  ],
                },
                nota: {
                  type: 'string',
                  description: 'What was found, in Portuguese, for a person to read.',
                },
              },
            },
          },
        ],
      },
    },
  },
  listVehicleEngines: {
    responses: {
      '200': {
        success: true,
        total: 2,
        page: 1,
        total_pages: 1,
        results: [
          {
            id: 6389,
            variant_id: 4873,
            code: 'VO337F',
            fuel: 'petrol',
            displacement_cc: 998,
            power_kw: 75,
            power_hp: 102,
            cylinders: 3,
          },
          {
            id: 6390,
            variant_id: 4873,
            code: 'VO337U',
            fuel: 'petrol',
            displacement_cc: 998,
            power_kw: 75,
            power_hp: 102,
            cylinders: 3,
          },
        ],
      },
    },
    params: {
      variantId: 4873,
    },
    query: {
      per_page: 3,
    },
  },
  listVehicleMakes: {
    responses: {
      '200': {
        success: true,
        total: 1,
        page: 1,
        total_pages: 1,
        results: [
          {
            id: 56,
            name: 'Volkswagen',
            country_code: 'DE',
          },
        ],
      },
    },
    query: {
      q: 'volkswagen',
    },
  },
  listVehicleModels: {
    responses: {
      '200': {
        success: true,
        total: 2,
        page: 1,
        total_pages: 1,
        results: [
          {
            id: 890,
            make_id: 56,
            name: 'Golf VII',
            year_from: 2012,
            year_to: 2020,
          },
          {
            id: 891,
            make_id: 56,
            name: 'Golf VIII',
            year_from: 2019,
            year_to: null,
          },
        ],
      },
      '404': {
        success: false,
        mensagem: 'Marca não encontrada no catálogo: 999999.',
        code: 'CATALOG_ENTRY_NOT_FOUND',
      },
    },
    params: {
      makeId: 56,
    },
    query: {
      q: 'golf vii',
    },
  },
  listVehicleVariants: {
    responses: {
      '200': {
        success: true,
        total: 6,
        page: 1,
        total_pages: 3,
        results: [
          {
            id: 4873,
            model_id: 890,
            name: '1.0 TSI 102 cv',
            year_from: 2016,
            year_to: 2020,
            body_type: 'sedan',
            fuel: 'petrol',
            power_kw: 75,
            power_hp: 102,
            displacement_cc: 998,
            engine_codes: ['VO337F', 'VO337U'],
          },
          {
            id: 4877,
            model_id: 890,
            name: '1.6 eHybrid 241 cv',
            year_from: 2017,
            year_to: 2020,
            body_type: 'hatchback',
            fuel: 'plugin_hybrid',
            power_kw: 177,
            power_hp: 241,
            displacement_cc: 1598,
            engine_codes: ['VO312P', 'VO312J'],
          },
        ],
      },
    },
    params: {
      modelId: 890,
    },
    query: {
      per_page: 2,
    },
  },
  login: {
    responses: {
      '200': {
        success: true,
        access_token: 'pst_5oiRVti01hBpdgcovZi7MyAVt5m2x8Zvm4PcioOp1CP',
        token_type: 'Bearer',
        expires_at: '2026-04-01T10:00:00.000Z',
      },
      '401': {
        success: false,
        mensagem: 'E-mail ou palavra-passe incorretos.',
        code: 'INVALID_CREDENTIALS',
      },
    },
    request: {
      email: 'ana@example.com',
      password: 'uma-palavra-passe-longa',
    },
  },
  logout: {
    responses: {
      '200': {
        success: true,
      },
      '401': {
        success: false,
        mensagem: 'Token de acesso inválido ou revogado.',
        code: 'INVALID_TOKEN',
      },
    },
  },
  patchStockItem: {
    responses: {
      '200': {
        success: true,
        result: 'updated',
        item: {
          sku: 'FIL-4711',
          id: '4001',
          reference: '1K0 129 620 D',
          title: 'Filtro de ar',
          description: 'Caixa original, sem uso',
          condition: 'novo',
          price: 11.9,
          currency: 'EUR',
          quantity: 2,
          is_oem: true,
          is_aftermarket: false,
          vehicle_make: 'Volkswagen',
          vehicle_model: 'Golf',
          vehicle_variant: null,
          part_id: null,
          country: 'PT',
          references: ['A 123 456', 'WA9567'],
          version: '4003',
          updated_at: '2026-03-02T10:00:00.000Z',
        },
      },
      '400': {
        success: false,
        mensagem: 'O campo corpo.price deve ser no mínimo 0.',
        code: 'VALIDATION_ERROR',
        campos: [
          {
            campo: 'corpo.price',
            motivo: 'minimum',
            mensagem: 'O campo corpo.price deve ser no mínimo 0.',
          },
        ],
      },
    },
    request: {
      price: 11.9,
      quantity: 2,
    },
    params: {
      sku: 'FIL-4711',
    },
  },
  paySandboxCheckout: {
    responses: {},
    params: {
      reference: 'pay_SMojiopUSlhvYuwt9JCGqjjW',
    },
  },
  purchaseCredits: {
    responses: {
      '201': {
        success: true,
        payment_id: '1',
        reference: 'pay_SMojiopUSlhvYuwt9JCGqjjW',
        status: 'pending',
        package: {
          id: 'starter',
          name: 'Starter',
          credits: 500,
          price_eur: 19,
        },
        checkout_url: 'https://api.example.com/payments/sandbox/checkout/pay_SMojiopUSlhvYuwt9JCGqjjW',
        created_at: '2026-03-02T10:00:00.000Z',
      },
      '404': {
        success: false,
        mensagem: 'Pacote de créditos desconhecido: platina. Disponíveis: starter, pro, business, scale.',
        code: 'PACKAGE_NOT_FOUND',
      },
    },
    request: {
      package_id: 'starter',
    },
  },
  putStockItem: {
    responses: {
      '200': {
        success: true,
        result: 'unchanged',
        item: {
          sku: 'FIL-4711',
          id: '4001',
          reference: '1K0 129 620 D',
          title: 'Filtro de ar',
          description: 'Caixa original, sem uso',
          condition: 'novo',
          price: 12.5,
          currency: 'EUR',
          quantity: 3,
          is_oem: true,
          is_aftermarket: false,
          vehicle_make: 'Volkswagen',
          vehicle_model: 'Golf',
          vehicle_variant: null,
          part_id: null,
          country: 'PT',
          references: ['A 123 456', 'WA9567'],
          version: '4002',
          updated_at: '2026-03-02T10:00:00.000Z',
        },
      },
      '201': {
        success: true,
        result: 'created',
        item: {
          sku: 'FIL-4711',
          id: '4001',
          reference: '1K0 129 620 D',
          title: 'Filtro de ar',
          description: 'Caixa original, sem uso',
          condition: 'novo',
          price: 12.5,
          currency: 'EUR',
          quantity: 3,
          is_oem: true,
          is_aftermarket: false,
          vehicle_make: 'Volkswagen',
          vehicle_model: 'Golf',
          vehicle_variant: null,
          part_id: null,
          country: 'PT',
          references: ['A 123 456', 'WA9567'],
          version: '4002',
          updated_at: '2026-03-02T10:00:00.000Z',
        },
      },
      '403': {
        success: false,
        mensagem: 'Esta credencial não tem o âmbito stock:write: crie uma chave de API com ele (scopes).',
        code: 'INSUFFICIENT_SCOPE',
        scope: 'stock:write',
      },
    },
    request: {
      reference: '1K0 129 620 D',
      title: 'Filtro de ar',
      description: 'Caixa original, sem uso',
      condition: 'novo',
      price: 12.5,
      quantity: 3,
      is_oem: true,
      vehicle_make: 'Volkswagen',
      vehicle_model: 'Golf',
      references: ['A 123 456', 'WA9567'],
    },
    params: {
      sku: 'FIL-4711',
    },
  },
  receiveSandboxWebhook: {
    responses: {
      '200': {
        success: true,
        result: 'credited',
      },
      '401': {
        success: false,
        mensagem: 'Assinatura do webhook inválida (missing).',
        code: 'INVALID_SIGNATURE',
      },
    },
    request: {
      event: 'payment.succeeded',
      payment: 'pay_jBL4nZaQt1X4kRikYMurt7O9',
    },
  },
  receiveStripeWebhook: {
    responses: {
      '200': {
        success: true,
        result: 'ignored',
      },
      '404': {
        success: false,
        mensagem: 'O fornecedor de pagamentos stripe não está ativo neste servidor; nada foi alterado.',
        code: 'WEBHOOK_NOT_ACTIVE',
      },
    },
    request: {
      id: 'evt_1QexampleA1b2C3d4',
      object: 'event',
      type: 'customer.created',
      data: {
        object: {
          id: 'cus_QexampleA1b2C3',
          object: 'customer',
        },
      },
    },
  },
  registerAccount: {
    responses: {
      '201': {
        success: true,
        account: {
          id: '2',
          email: 'ana@example.com',
          name: 'Ana',
          credits: 50,
          daily_credit_limit: null,
          created_at: '2026-03-02T10:00:00.000Z',
        },
      },
      '400': {
        success: false,
        mensagem: 'O campo corpo.password é obrigatório.',
        code: 'VALIDATION_ERROR',
        campos: [
          {
            campo: 'corpo.password',
            motivo: 'required',
            mensagem: 'O campo corpo.password é obrigatório.',
          },
        ],
      },
      '409': {
        success: false,
        mensagem: 'Já existe uma conta com este e-mail.',
        code: 'EMAIL_TAKEN',
      },
    },
    request: {
      email: 'ana@example.com',
      password: 'uma-palavra-passe-longa',
      name: 'Ana',
    },
  },
  registerApiUser: {
    responses: {
      '201': {
        success: true,
        account: {
          id: '3',
          email: 'erp@example.com',
          name: null,
          credits: 50,
          daily_credit_limit: null,
          created_at: '2026-03-02T10:00:00.000Z',
        },
        api_key: {
          key: 'psk_z9mlOoUu3k92bTLuxohdCJjKGToPrDlFPmCs5Hp3',
          id: '2',
          name: 'Chave inicial',
          prefix: 'psk_z9mlOoUu',
          rate_limit_per_minute: null,
          rate_limit_per_hour: null,
          daily_credit_limit: null,
          scopes: ['search'],
          seller_id: null,
          created_at: '2026-03-02T10:00:00.000Z',
          last_used_at: null,
          revoked_at: null,
        },
      },
    },
    request: {
      email: 'erp@example.com',
      password: 'outra-palavra-passe',
    },
  },
  registerSeller: {
    responses: {
      '201': {
        success: true,
        seller: {
          id: '401',
          name: 'Peças Ana',
          country: 'PT',
          city: 'Lisboa',
          items: 0,
          created_at: '2026-03-02T10:00:00.000Z',
        },
      },
    },
    request: {
      name: 'Peças Ana',
      country: 'PT',
      city: 'Lisboa',
    },
  },
  revokeApiKey: {
    responses: {
      '200': {
        success: true,
        api_key: {
          id: '4',
          name: 'temporária',
          prefix: 'psk_OtOqlJmy',
          rate_limit_per_minute: null,
          rate_limit_per_hour: null,
          daily_credit_limit: null,
          scopes: ['search'],
          seller_id: null,
          created_at: '2026-03-02T10:00:00.000Z',
          last_used_at: null,
          revoked_at: '2026-03-02T10:00:00.000Z',
        },
      },
    },
    params: {
      id: '4',
    },
  },
  searchStock: {
    responses: {
      '200': {
        success: true,
        credits_spent: 1,
        credits_remaining: 49,
        search_token: 'mjL.g.dx6BeESFw5.dAMBxxvag1OmZHZgROVsfJ.ARWCUeqv8rFis4Trb93M24wOlMBZR60AP680DKQuc24',
        search_token_expires_at: '2026-03-02T10:10:00.000Z',
        total: 23,
        page: 1,
        per_page: 2,
        total_pages: 12,
        stats: {
          price_min: 19.37,
          price_max: 60.71,
          price_avg: 37.87,
          total_sellers: 23,
          total_results: 23,
          by_condition: {
            usado_bom: {
              count: 1,
              price_min: 28.56,
              price_max: 28.56,
              price_avg: 28.56,
            },
            novo: {
              count: 22,
              price_min: 19.37,
              price_max: 60.71,
              price_avg: 38.3,
            },
          },
        },
        results: [
          {
            id: 1289,
            referencia_oem: '713 694 495',
            titulo: 'Rolamento de roda traseiro FAG - Opel Agila 1.2 DTI 87 cv',
            condicao: 'novo',
            preco: 19.37,
            moeda: 'EUR',
            vendor_nome: 'Papadopoulos Auto Parts',
            location_country_code: 'GR',
            referencias: [
              {
                referencia: '55 834 767',
                tipo: 'oem',
                marca: 'Opel',
              },
            ],
            referencia_encontrada: '55 834 767',
            descricao:
              'Peça nova, na embalagem original. Referência 713 694 495. Compatível com Opel Agila 1.2 DTI 87 cv. Marca FAG, equivalente ao original. Garantia de 24 meses.',
            parte_id: 1195,
            marca_veiculo: 'Opel',
            modelo_veiculo: 'Agila',
            variante_veiculo: '1.2 DTI 87 cv',
            is_oem: false,
            is_aftermarket: true,
            vendor_id: 151,
            quantidade: 1,
            atualizado_em: '2026-03-02T10:00:00.000Z',
          },
          {
            id: 1932,
            referencia_oem: 'VKBA 4507',
            titulo: 'Rodamiento de rueda trasero SKF - Opel Agila 1.2 CDTI 68 cv',
            condicao: 'novo',
            preco: 21.27,
            moeda: 'EUR',
            vendor_nome: 'Autodesguace Valladolid',
            location_country_code: 'ES',
            referencias: [
              {
                referencia: '55 834 767',
                tipo: 'oem',
                marca: 'Opel',
              },
            ],
            referencia_encontrada: '55 834 767',
            descricao:
              'Pieza nueva, en su embalaje original. Referencia VKBA 4507. Compatible con Opel Agila 1.2 CDTI 68 cv. Marca SKF, equivalente al original. Garantía de 24 meses.',
            parte_id: 1195,
            marca_veiculo: 'Opel',
            modelo_veiculo: 'Agila',
            variante_veiculo: '1.2 CDTI 68 cv',
            is_oem: false,
            is_aftermarket: true,
            vendor_id: 148,
            quantidade: 12,
            atualizado_em: '2026-03-02T10:00:00.000Z',
          },
        ],
      },
      '400': {
        success: false,
        mensagem: 'O campo corpo.per_page deve ser no máximo 100.',
        code: 'VALIDATION_ERROR',
        campos: [
          {
            campo: 'corpo.per_page',
            motivo: 'maximum',
            mensagem: 'O campo corpo.per_page deve ser no máximo 100.',
          },
        ],
      },
      '401': {
        success: false,
        mensagem: 'Autenticação em falta: envie X-API-Key ou Authorization: Bearer <token>.',
        code: 'UNAUTHORIZED',
      },
      '402': {
        success: false,
        mensagem: 'Limite diário de gastos da conta atingido: 1 de 1 créditos gastos hoje (UTC).',
        code: 'DAILY_LIMIT_REACHED',
        daily_credit_limit: 1,
        spent_today: 1,
      },
    },
    request: {
      reference: '55 834 767',
      per_page: 2,
    },
  },
  sendStockFeed: {
    responses: {
      '202': {
        success: true,
        feed: {
          id: '1',
          seller_id: '401',
          mode: 'delta',
          format: 'csv',
          gzipped: false,
          dry_run: false,
          force: false,
          status: 'received',
          bytes: 667,
          counts: {
            lines: 0,
            created: 0,
            updated: 0,
            unchanged: 0,
            removed: 0,
            rejected: 0,
          },
          warnings: [],
          reason: null,
          reason_code: null,
          created_at: '2026-03-02T10:00:00.000Z',
          received_at: '2026-03-02T10:00:00.000Z',
          started_at: null,
          finished_at: null,
        },
      },
      '415': {
        success: false,
        mensagem:
          'Tipo de conteúdo não suportado: envie text/csv ou application/csv ou text/tab-separated-values ou text/plain ou application/x-ndjson ou application/jsonl ou application/x-jsonlines ou application/jsonlines (Content-Type).',
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
    },
    request:
      'sku;referencia;titulo;descricao;condicao;preco;moeda;quantidade;is_oem;is_aftermarket;marca;modelo;variante;parte_id;referencias;pais\nFIL-4711;1K0 129 620 D;Filtro de ar;Caixa original, sem uso;novo;12,50;EUR;3;sim;não;Volkswagen;Golf;;;A 123 456|WA9567;PT\nALT-0042;06F 903 023 F;Alternador;Testado, 90 A;usado_bom;85,00;EUR;1;sim;não;Audi;A3;8P;;;\nDIS-0007;34 11 6 792 217;Disco de travão dianteiro;Par, 330 mm;new;64,90;EUR;4;não;sim;BMW;Série 3;;;BREMBO 09.C394.13;ES\nAMO-1200;54302-4EA0A;Amortecedor dianteiro esquerdo;"Jante 16"", com suporte";recondicionado;49,00;EUR;1;;;Nissan;Qashqai;;;;\nPAS-0100;3C0 698 151 A;Pastilhas de travão;;novo;;EUR;2;;;;;;;;\n',
    query: {
      mode: 'delta',
    },
  },
  updateAccount: {
    responses: {
      '200': {
        success: true,
        account: {
          id: '2',
          email: 'ana@example.com',
          name: 'Ana',
          credits: 50,
          daily_credit_limit: 500,
          created_at: '2026-03-02T10:00:00.000Z',
        },
        plan: {
          rate_limit_per_minute: 60,
          rate_limit_per_hour: 1000,
          daily_credits: null,
        },
      },
      '400': {
        success: false,
        mensagem: 'O campo corpo.daily_credit_limit deve ser número inteiro ou nulo.',
        code: 'VALIDATION_ERROR',
        campos: [
          {
            campo: 'corpo.daily_credit_limit',
            motivo: 'type',
            mensagem: 'O campo corpo.daily_credit_limit deve ser número inteiro ou nulo.',
          },
        ],
      },
    },
    request: {
      daily_credit_limit: 500,
    },
  },
  updateApiKey: {
    responses: {
      '200': {
        success: true,
        api_key: {
          id: '3',
          name: 'integração',
          prefix: 'psk_xgt7p43f',
          rate_limit_per_minute: 30,
          rate_limit_per_hour: 500,
          daily_credit_limit: 200,
          scopes: ['search'],
          seller_id: null,
          created_at: '2026-03-02T10:00:00.000Z',
          last_used_at: null,
          revoked_at: null,
        },
      },
      '404': {
        success: false,
        mensagem: 'Chave de API não encontrada ou revogada (uma chave revogada não pode ser alterada).',
        code: 'API_KEY_NOT_FOUND',
      },
    },
    request: {
      rate_limit_per_hour: 500,
      daily_credit_limit: 200,
    },
    params: {
      id: '3',
    },
  },
  updateSeller: {
    responses: {
      '200': {
        success: true,
        seller: {
          id: '401',
          name: 'Peças Ana',
          country: 'PT',
          city: 'Porto',
          items: 0,
          created_at: '2026-03-02T10:00:00.000Z',
        },
      },
      '404': {
        success: false,
        mensagem: 'Vendedor não encontrado (ou não pertence a esta credencial).',
        code: 'SELLER_NOT_FOUND',
      },
    },
    request: {
      city: 'Porto',
    },
    params: {
      id: '401',
    },
  },
  '*': {
    responses: {
      '413': {
        success: false,
        mensagem: 'O corpo do pedido excede o limite de 32 KB desta rota.',
        code: 'PAYLOAD_TOO_LARGE',
      },
      '415': {
        success: false,
        mensagem:
          'Tipo de conteúdo não suportado: envie o corpo em JSON, com Content-Type: application/json.',
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
      '429': {
        success: false,
        mensagem: 'Limite de 1 pedidos por minuto desta chave de API excedido. Tente novamente mais tarde.',
        code: 'RATE_LIMITED',
        remaining: 0,
        resetAt: '2026-03-02T10:01:00.000Z',
      },
    },
  },
};
