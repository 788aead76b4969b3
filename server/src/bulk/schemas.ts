const key = { type: 'string', minLength: 1, maxLength: 100 } as const;

export const verifyTruckBody = {
  type: 'object',
  additionalProperties: false,
  required: ['truckNo', 'isoTankLicense'],
  properties: { truckNo: { ...key, description: 'A registered truck\'s number.' }, isoTankLicense: { ...key, description: 'A registered ISO tank\'s license.' } },
} as const;

const record = { type: 'object', additionalProperties: true } as const;
export const verifyTruckAnswer = { 200: { type: 'object', properties: { truck: record, isoTank: record } } } as const;
